// The stream's state machine seen from outside: a device's connection makes it live, its disconnection idle again,
// and device.online / device.offline go to subscribed webhooks, validated with the generated validators.
import { describe } from 'vitest';
import { qualityMembers } from '../../generated/types/facts.js';
import type { Format, Quality } from '../../generated/types/schemas.js';
import {
  validateDeviceOfflineEventPayload,
  validateDeviceOnlineEventPayload,
} from '../../generated/validators/index.js';
import { type CheckContext, check, expectWith } from '../harness/check.js';
import { type Exchange, send } from '../harness/probe.js';
import { connectAs, createStream, deleteStream, getStream, waitUntil } from './support/data-plane.js';
import { expectError, expectListPage, expectOperationResponse } from './support/rest-http.js';
import { limitBounds, ResolvedSchema } from './support/rest-spec.js';
import { eventsAbout, objectOf, type ParsedDelivery, useReceiver } from './support/webhooks.js';

const hooks = useReceiver();
const eventWaitMs = 10_000;

/** What the API answered to changes asked of the stream while it was live, and the stream read back after them. */
interface WhileLive {
  otherQuality: Exchange;
  otherFormat: Exchange;
  titleOnly: Exchange;
  sameIngestNewTitle: Exchange;
  deletion: Exchange;
  after: Exchange;
  /** The stream list filtered by status live, then idle. */
  listedLive: Exchange;
  listedIdle: Exchange;
}

interface Session {
  stream: Awaited<ReturnType<typeof createStream>>;
  liveSeen: boolean;
  live: Record<string, unknown>;
  whileLive: WhileLive;
  idleSeen: boolean;
  idle: Record<string, unknown> | null;
  online: ParsedDelivery[];
  offline: ParsedDelivery[];
}

let session: Promise<Session> | null = null;

const qualities = Object.keys(qualityMembers) as Quality[];
const formats = (ResolvedSchema.at('schemas/format.yaml').members ?? []) as Format[];

function otherThan<Value>(values: readonly Value[], current: unknown): Value {
  const other = values.find((value) => value !== current);
  if (other === undefined) throw new Error(`the spec gives no value other than ${String(current)}`);
  return other;
}

/** Another quality, another format (one each, so the refusal can name the field), the same ones with a new title, a DELETE. */
async function changesWhileLive(
  stream: Session['stream'],
  live: Record<string, unknown>,
): Promise<WhileLive> {
  const patch = (body: Record<string, unknown>) =>
    send('PATCH', `/streams/${stream.id}`, { body, server: 'api' });
  const otherQuality = await patch({ quality: otherThan(qualities, live.quality) });
  const otherFormat = await patch({ format: otherThan(formats, live.format) });
  // A change that names neither quality nor format changes neither.
  const titleOnly = await patch({ title: `${stream.title} (title only, live)` });
  const sameIngestNewTitle = await patch({
    quality: live.quality,
    format: live.format,
    title: `${stream.title} (renamed live)`,
  });
  const deletion = await send('DELETE', `/streams/${stream.id}`, { server: 'api' });
  // Read without asserting: a target that deleted the stream fails this check alone, not the session's others.
  const after = await send('GET', `/streams/${stream.id}`, { server: 'api' });
  const list = (status: string) =>
    send('GET', '/streams', { query: { status, limit: limitBounds().maximum }, server: 'api' });
  const [listedLive, listedIdle] = [await list('live'), await list('idle')];
  return {
    otherQuality,
    otherFormat,
    titleOnly,
    sameIngestNewTitle,
    deletion,
    after,
    listedLive,
    listedIdle,
  };
}

/** One device session (connect, disconnect) watched from REST and a webhook, shared by the checks below. */
function deviceSession(context: CheckContext): Promise<Session> {
  session ??= (async () => {
    const webhook = await hooks.register(context, 'lifecycle', {
      events: ['device.online', 'device.offline'],
    });
    const stream = await createStream();
    const device = await connectAs(stream);
    const liveSeen = await waitUntil(async () => (await getStream(stream)).status === 'live', 5000, 50);
    const live = await getStream(stream);
    const whileLive = await changesWhileLive(stream, live);
    await device.close();
    // Tolerant reads: a target that deleted the live stream fails the stream_live check, not these.
    const idleSeen = await waitUntil(
      async () => (await getStream(stream).catch(() => null))?.status === 'idle',
      5000,
      50,
    );
    const idle = await getStream(stream).catch(() => null);
    const deliveries = await hooks.waitFor(
      context,
      webhook,
      (found) => eventsAbout(found, 'device.offline', stream.id).length > 0,
      eventWaitMs,
    );
    await deleteStream(stream);
    const online = eventsAbout(deliveries, 'device.online', stream.id);
    const offline = eventsAbout(deliveries, 'device.offline', stream.id);
    return { stream, liveSeen, live, whileLive, idleSeen, idle, online, offline };
  })();
  const shared = session;
  return shared.then((found) => {
    context.evidence('stream while connected', found.live);
    context.evidence(
      'events',
      [...found.online, ...found.offline].map((each) => ({ at: each.arrivedAt, event: each.event })),
    );
    return found;
  });
}

describe('stream state', () => {
  check(
    ['STATE-STREAM-ONLINE', 'RULE-INGEST-ON-CONNECT'],
    'a connection makes the stream live with startedAt and sends one device.online',
    async (context) => {
      const { liveSeen, live, online } = await deviceSession(context);
      expectWith(
        liveSeen && typeof live.startedAt === 'string',
        'status live with startedAt while connected',
        live,
      );
      expectWith(
        online.length === 1,
        'one device.online',
        online.map((each) => each.event),
      );
    },
  );

  check(
    ['EVT-TYPE-DEVICE-ONLINE', 'EVT-DEVICE-ONLINE-PAYLOAD'],
    "device.online carries the documented snapshot: valid, status live, the stream's title and startedAt",
    async (context) => {
      const { online, live, stream } = await deviceSession(context);
      const [onlineEvent] = online;
      const onlineValid = validateDeviceOnlineEventPayload(onlineEvent?.event);
      expectWith(onlineValid.ok, 'device.online valid (documented snapshot, status live)', onlineValid);
      const onlineObject = onlineEvent === undefined ? {} : objectOf(onlineEvent);
      expectWith(
        onlineObject.startedAt === live.startedAt && onlineObject.title === stream.title,
        "device.online's snapshot the stream's (title, startedAt)",
        { onlineObject, live },
      );
    },
  );

  check(
    [
      'RULE-INGEST-ON-DISCONNECT',
      'INF-SCHEMAS-STREAM-STATUS-X-TRANSITIONS-2',
      'EVT-TYPE-DEVICE-OFFLINE',
      'INF-SCHEMAS-EVENT-DEVICE-OFFLINE',
      'INF-SCHEMAS-STREAM-SNAPSHOT-PROPERTIES-OBJECT',
      'INF-SCHEMAS-STREAM-SNAPSHOT-PROPERTIES-ENDEDAT',
    ],
    'a disconnection makes the stream idle and sends one device.offline (status idle, endedAt), after device.online',
    async (context) => {
      const { idleSeen, idle, online, offline } = await deviceSession(context);
      expectWith(idleSeen, 'status idle after the device disconnected', idle);
      expectWith(
        offline.length === 1,
        'one device.offline',
        offline.map((each) => each.event),
      );
      const [onlineEvent, offlineEvent] = [online[0], offline[0]];
      const offlineValid = validateDeviceOfflineEventPayload(offlineEvent?.event);
      expectWith(offlineValid.ok, 'device.offline valid', offlineValid);
      const offlineObject = offlineEvent === undefined ? {} : objectOf(offlineEvent);
      expectWith(
        offlineObject.status === 'idle' && typeof offlineObject.endedAt === 'string',
        'device.offline: status idle and endedAt',
        offlineObject,
      );
      expectWith(
        (onlineEvent?.arrivedAt ?? 0) <= (offlineEvent?.arrivedAt ?? 0),
        'device.online before device.offline',
        [onlineEvent?.arrivedAt, offlineEvent?.arrivedAt],
      );
    },
  );

  check(
    ['INF-SCHEMAS-ERROR-CODE-ONEOF-STREAM_LIVE'],
    'a live stream refuses deletion and quality or format changes: 409 stream_live naming the field; a new title alone, or with the same quality and format, is taken',
    async (context) => {
      const { liveSeen, live, whileLive } = await deviceSession(context);
      expectWith(liveSeen, 'the stream live while connected', live);
      const { otherQuality, otherFormat, titleOnly, sameIngestNewTitle, deletion } = whileLive;
      expectError(otherQuality, { code: 'stream_live', param: 'quality' }, 'updateStream');
      expectError(otherFormat, { code: 'stream_live', param: 'format' }, 'updateStream');
      expectError(deletion, { code: 'stream_live' }, 'deleteStream');
      expectOperationResponse('updateStream', titleOnly, 200);
      const renamed = expectOperationResponse('updateStream', sameIngestNewTitle, 200) as Record<
        string,
        unknown
      >;
      const after = expectOperationResponse('getStream', whileLive.after, 200) as Record<string, unknown>;
      expectWith(
        renamed.title === after.title && String(after.title).endsWith('(renamed live)'),
        'the new title taken while live (the quality and format sent are the ones it has)',
        { renamed, after },
      );
      expectWith(
        after.quality === live.quality && after.format === live.format && after.status === 'live',
        'quality and format as they were, the stream still live',
        { live, after },
      );
    },
  );

  check(
    ['INF-OPENAPI-PATHS-STREAMS-GET-PARAMETERS-3'],
    'status filters the stream list: a live stream is listed under live, not under idle',
    async (context) => {
      const { liveSeen, live, stream, whileLive } = await deviceSession(context);
      expectWith(liveSeen, 'the stream live while connected', live);
      for (const [exchange, status, listed] of [
        [whileLive.listedLive, 'live', true],
        [whileLive.listedIdle, 'idle', false],
      ] as const) {
        const page = expectListPage<{ id: string; status: string }>('listStreams', exchange);
        expectWith(
          page.data.every((item) => item.status === status),
          `only ${status} streams`,
          exchange,
        );
        expectWith(
          page.data.some((item) => item.id === stream.id) === listed,
          `the live stream ${listed ? '' : 'not '}listed under ${status}`,
          exchange,
        );
      }
    },
  );
});
