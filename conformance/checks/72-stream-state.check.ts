// The stream's state machine seen from outside: a device's connection makes it live, its disconnection idle again,
// and device.online / device.offline go to subscribed webhooks, validated with the generated validators.
import { describe } from 'vitest';
import {
  validateDeviceOfflineEventPayload,
  validateDeviceOnlineEventPayload,
} from '../../generated/validators/index.js';
import { check, expectWith } from '../harness/check.js';
import { connectAs, createStream, deleteStream, getStream, waitUntil } from './support/data-plane.js';
import { eventsAbout, objectOf, useReceiver } from './support/webhooks.js';

const hooks = useReceiver();
const eventWaitMs = 10_000;

describe('stream state', () => {
  check(
    [
      'STATE-STREAM-ONLINE',
      'RULE-INGEST-ON-CONNECT',
      'RULE-INGEST-ON-DISCONNECT',
      'INF-SCHEMAS-STREAM-STATUS-X-TRANSITIONS-2',
      'EVT-TYPE-DEVICE-ONLINE',
      'EVT-TYPE-DEVICE-OFFLINE',
      'EVT-DEVICE-ONLINE-PAYLOAD',
      'INF-SCHEMAS-EVENT-DEVICE-OFFLINE',
      'INF-SCHEMAS-STREAM-SNAPSHOT-PROPERTIES-OBJECT',
      'INF-SCHEMAS-STREAM-SNAPSHOT-PROPERTIES-ENDEDAT',
    ],
    'a connection makes the stream live with startedAt and sends device.online; a disconnection makes it idle and sends device.offline',
    async (context) => {
      const webhook = await hooks.register(context, 'lifecycle', {
        events: ['device.online', 'device.offline'],
      });
      const stream = await createStream();
      const device = await connectAs(stream);
      const liveSeen = await waitUntil(async () => (await getStream(stream)).status === 'live', 5000, 50);
      const live = await getStream(stream);
      await device.close();
      const idleSeen = await waitUntil(async () => (await getStream(stream)).status === 'idle', 5000, 50);
      const deliveries = await hooks.waitFor(
        context,
        webhook,
        (found) => eventsAbout(found, 'device.offline', stream.id).length > 0,
        eventWaitMs,
      );
      await deleteStream(stream);
      const online = eventsAbout(deliveries, 'device.online', stream.id);
      const offline = eventsAbout(deliveries, 'device.offline', stream.id);
      context.evidence('stream while connected', live);
      context.evidence(
        'events',
        [...online, ...offline].map((each) => ({ at: each.arrivedAt, event: each.event })),
      );
      expectWith(
        liveSeen && typeof live.startedAt === 'string',
        'status live with startedAt while connected',
        live,
      );
      expectWith(
        idleSeen,
        'status idle after the device disconnected',
        await getStream(stream).catch(() => null),
      );
      expectWith(
        online.length === 1,
        'one device.online',
        online.map((each) => each.event),
      );
      expectWith(
        offline.length === 1,
        'one device.offline',
        offline.map((each) => each.event),
      );
      const [onlineEvent, offlineEvent] = [online[0], offline[0]];
      const onlineValid = validateDeviceOnlineEventPayload(onlineEvent?.event);
      expectWith(onlineValid.ok, 'device.online valid (documented snapshot, status live)', onlineValid);
      const offlineValid = validateDeviceOfflineEventPayload(offlineEvent?.event);
      expectWith(offlineValid.ok, 'device.offline valid', offlineValid);
      const onlineObject = onlineEvent === undefined ? {} : objectOf(onlineEvent);
      expectWith(
        onlineObject.startedAt === live.startedAt && onlineObject.title === stream.title,
        "device.online's snapshot the stream's (title, startedAt)",
        { onlineObject, live },
      );
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
