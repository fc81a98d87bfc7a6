// The stream's state machine seen from outside: a device's connection makes it live, its disconnection idle again,
// and device.online / device.offline go to subscribed webhooks, validated with the generated validators.
import { describe } from 'vitest';
import {
  validateDeviceOfflineEventPayload,
  validateDeviceOnlineEventPayload,
} from '../../generated/validators/index.js';
import { type CheckContext, check, expectWith } from '../harness/check.js';
import { connectAs, createStream, deleteStream, getStream, waitUntil } from './support/data-plane.js';
import { eventsAbout, objectOf, type ParsedDelivery, useReceiver } from './support/webhooks.js';

const hooks = useReceiver();
const eventWaitMs = 10_000;

interface Session {
  stream: Awaited<ReturnType<typeof createStream>>;
  liveSeen: boolean;
  live: Record<string, unknown>;
  idleSeen: boolean;
  idle: Record<string, unknown> | null;
  online: ParsedDelivery[];
  offline: ParsedDelivery[];
}

let session: Promise<Session> | null = null;

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
    await device.close();
    const idleSeen = await waitUntil(async () => (await getStream(stream)).status === 'idle', 5000, 50);
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
    return { stream, liveSeen, live, idleSeen, idle, online, offline };
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
});
