// MQTT ingest, black-box: a device connects with its stream's id and streamKey, publishes, and what it publishes is
// looked for where the spec says it goes (the live feed, device.error webhooks).
import { describe } from 'vitest';
import { deviceTelemetryMessagesByFormat } from '../../generated/messages/index.js';
import { channelFacts, qualityMembers } from '../../generated/types/facts.js';
import type { Format } from '../../generated/types/schemas.js';
import { validateLiveFrame } from '../../generated/validators/index.js';
import { check, expectWith } from '../harness/check.js';
import { refusalCode } from '../harness/mqtt-device.js';
import {
  connectAs,
  createStream,
  deleteStream,
  encodeSample,
  indexOf,
  sampleOf,
  sleep,
  subscribeTo,
  telemetryOf,
  topicOf,
  waitUntil,
} from './support/data-plane.js';
import { eventsAbout, objectOf, type ParsedDelivery, useReceiver } from './support/webhooks.js';

const errorCodeOf = (delivery: ParsedDelivery) =>
  (delivery.event?.data as { error?: { code?: string } } | undefined)?.error?.code;

const rules = channelFacts.deviceTelemetry.ingestRules;
const formats = Object.keys(deviceTelemetryMessagesByFormat) as Format[];
const settleMs = 1500;
const hooks = useReceiver();

/** Refused at CONNECT: resolves to the CONNACK return code, or to `connected` when the broker let it in. */
async function connectOutcome(attempt: () => Promise<{ close(): Promise<void> }>) {
  try {
    const device = await attempt();
    await device.close();
    return 'connected' as const;
  } catch (error) {
    return refusalCode(error) ?? (error as Error).message;
  }
}

describe('MQTT ingest', () => {
  check(
    ['RES-STREAM-MQTT-TOPIC', 'SVC-MQTT-BROKER', 'INF-ASYNCAPI-SERVERS-MQTT', 'RULE-INGEST-QOS-1'],
    'a device connects at the broker of mqttTopic with stream id and streamKey; a QoS 1 publish is acknowledged',
    async (context) => {
      const stream = await createStream();
      const device = await connectAs(stream);
      try {
        await device.publish(topicOf(stream.id), encodeSample('json', sampleOf(1)), { qos: 1 });
        context.evidence('MQTT packets', device.packets);
        const acknowledged = device.packets.some((packet) => packet.cmd === 'puback');
        expectWith(acknowledged, 'a PUBACK for the QoS 1 publish', device.packets);
      } finally {
        await device.close();
        await deleteStream(stream);
      }
    },
    { essential: true },
  );

  check(
    ['RULE-INGEST-ACKNOWLEDGED-SAMPLE-RULE'],
    'QoS 1 samples are acknowledged in the order they were published, and every acknowledged sample reaches a subscriber',
    async (context) => {
      // Within one bucket of the lowest quality's rate, so none is over the rate and every one must be accepted.
      const count = Math.min(50, qualityMembers.low.sampleRateHz * rules.rateWindow.burstSeconds);
      const stream = await createStream({ quality: 'low', format: 'json' });
      const subscriber = await subscribeTo(stream);
      const device = await connectAs(stream);
      try {
        const acknowledged: number[] = [];
        await Promise.all(
          Array.from({ length: count }, (_, offset) =>
            device
              .publish(topicOf(stream.id), encodeSample('json', sampleOf(offset + 1)), { qos: 1 })
              .then(() => acknowledged.push(offset + 1)),
          ),
        );
        await waitUntil(() => telemetryOf(subscriber).length >= count, 5000);
        const received = telemetryOf(subscriber).map(indexOf);
        const expected = Array.from({ length: count }, (_, offset) => offset + 1);
        context.evidence('acknowledged, then received', { acknowledged, received });
        expectWith(
          JSON.stringify(acknowledged) === JSON.stringify(expected),
          `PUBACKs in publish order for ${count} QoS 1 samples`,
          { acknowledged, packets: device.packets },
        );
        expectWith(
          JSON.stringify(received) === JSON.stringify(expected),
          'every acknowledged sample on the live feed, once each, in order',
          { received, frames: subscriber.frames },
        );
      } finally {
        await device.close();
        await subscriber.close();
        await deleteStream(stream);
      }
    },
  );

  check(
    ['INF-ASYNCAPI-SERVERS-MQTT', 'RULE-INGEST-AUTHENTICATION-RULE'],
    'a wrong streamKey, an unknown stream and a deleted stream are refused at CONNECT (not authorized)',
    async (context) => {
      const stream = await createStream();
      const other = await createStream();
      const wrongKey = await connectOutcome(() => connectAs(stream, { password: other.streamKey }));
      const unknown = await connectOutcome(() =>
        connectAs(stream, { username: `${stream.id.slice(0, -4)}zzzz` }),
      );
      await deleteStream(other);
      const deleted = await connectOutcome(() => connectAs(other));
      await deleteStream(stream);
      const outcomes = { wrongKey, unknown, deleted };
      context.evidence('CONNACK return codes', outcomes);
      // 5 not authorized (MQTT 3.1.1).
      for (const [name, outcome] of Object.entries(outcomes))
        expectWith(outcome === 5, `${name}: CONNACK refused with 5 (not authorized)`, outcomes);
    },
  );

  check(
    ['RULE-INGEST-CONNECTIONS-PER-STREAM'],
    `a second connection for a live stream is refused (${rules.connectionsPerStream})`,
    async (context) => {
      const stream = await createStream();
      const first = await connectAs(stream);
      try {
        const second = await connectOutcome(() => connectAs(stream));
        context.evidence('second CONNECT', { outcome: second, firstConnected: first.client.connected });
        expectWith(second === 5, 'the second CONNECT refused with 5 (not authorized)', second);
        expectWith(first.client.connected, 'the first connection to stay up', first.packets);
      } finally {
        await first.close();
        await deleteStream(stream);
      }
    },
  );

  check(
    ['RULE-INGEST-TOPIC-ACCESS', 'RULE-INGEST-UNSUPPORTED-OTHER-TOPIC'],
    `a device cannot reach another stream's subscribers (${rules.topicAccess})`,
    async (context) => {
      const own = await createStream();
      const victim = await createStream();
      const subscriber = await subscribeTo(victim);
      const device = await connectAs(own);
      try {
        await device
          .publish(topicOf(victim.id), encodeSample('json', sampleOf(7)), { qos: 0 })
          .catch(() => {});
        await sleep(settleMs);
        context.evidence('victim frames', subscriber.frames);
        context.evidence('device packets', device.packets);
        expectWith(
          telemetryOf(subscriber).length === 0,
          "nothing on the other stream's live feed",
          subscriber.frames,
        );
      } finally {
        await device.close();
        await subscriber.close();
        await deleteStream(own);
        await deleteStream(victim);
      }
    },
  );

  check(
    ['RULE-INGEST-TOPIC-ACCESS', 'RULE-INGEST-UNSUPPORTED-SUBSCRIBE'],
    `a device cannot subscribe, to its own topic or another's (${rules.topicAccess})`,
    async (context) => {
      const own = await createStream();
      const device = await connectAs(own);
      try {
        const granted = await device.client
          .subscribeAsync([topicOf(own.id), topicOf(`${own.id.slice(0, -4)}zzzz`)], { qos: 0 })
          .then((grants) => grants.map((grant) => grant.qos))
          .catch((error: Error) => error.message);
        context.evidence('device packets', device.packets);
        const refused =
          typeof granted === 'string' || granted.every((qos) => qos === 128) || !device.client.connected;
        expectWith(refused, 'SUBSCRIBE refused (SUBACK 0x80 or the connection closed)', granted);
      } finally {
        await device.close();
        await deleteStream(own);
      }
    },
  );

  for (const format of formats)
    check(
      [
        'INF-SCHEMAS-LIVE-FRAME',
        'INF-SCHEMAS-TELEMETRY-MESSAGE-PROPERTIES-RECEIVEDAT',
        'RULE-INGEST-QOS-0',
        ...(format === 'msgpack' ? ['INF-ASYNCAPI-COMPONENTS-MESSAGES-TELEMETRYMSGPACK'] : []),
        ...(format === 'csv'
          ? [
              'INF-ASYNCAPI-COMPONENTS-MESSAGES-TELEMETRYCSV',
              'INF-ASYNCAPI-COMPONENTS-MESSAGES-TELEMETRYCSV-X-CSV-LAYOUT',
            ]
          : []),
      ],
      `a ${format} sample published with QoS 0 reaches a subscriber decoded, in a valid live frame`,
      async (context) => {
        const stream = await createStream({ format });
        const subscriber = await subscribeTo(stream);
        const device = await connectAs(stream);
        try {
          const sample = sampleOf(42, 3);
          const before = Date.now();
          await device.publish(topicOf(stream.id), encodeSample(format, sample), { qos: 0 });
          await waitUntil(() => telemetryOf(subscriber).length > 0, 5000);
          context.evidence('frames', subscriber.frames);
          const [message] = telemetryOf(subscriber);
          expectWith(message !== undefined, 'the sample on the live feed', subscriber.frames);
          expectWith(
            JSON.stringify(message.sample) === JSON.stringify(sample),
            `the sample decoded as sent: ${JSON.stringify(sample)}`,
            message,
          );
          const receivedAt = Number(message.receivedAt);
          expectWith(
            receivedAt >= before - 5000 && receivedAt <= Date.now() + 5000,
            'receivedAt the Unix milliseconds of receipt',
            message,
          );
          for (const frame of subscriber.frames) {
            const valid = validateLiveFrame(frame.messages);
            expectWith(valid.ok, 'every frame a valid LiveFrame', { frame, valid });
          }
        } finally {
          await device.close();
          await subscriber.close();
          await deleteStream(stream);
        }
      },
    );

  check(
    ['RULE-INGEST-RETAIN'],
    `a retained publish is delivered once and not kept (${rules.retain})`,
    async (context) => {
      const stream = await createStream();
      const early = await subscribeTo(stream);
      const device = await connectAs(stream);
      try {
        await device.publish(topicOf(stream.id), encodeSample('json', sampleOf(5)), { qos: 1, retain: true });
        await waitUntil(() => telemetryOf(early).length > 0, 5000);
        const late = await subscribeTo(stream);
        await sleep(settleMs);
        context.evidence('frames of a subscriber before and after', {
          early: early.frames,
          late: late.frames,
        });
        await late.close();
        expectWith(
          telemetryOf(early).length === 1,
          'the retained sample delivered to the subscriber then',
          early.frames,
        );
        expectWith(
          telemetryOf(late).length === 0,
          'no retained sample replayed to a later subscriber',
          late.frames,
        );
      } finally {
        await device.close();
        await early.close();
        await deleteStream(stream);
      }
    },
  );

  check(
    [
      'RULE-INGEST-OVERSIZED',
      'RULE-INGEST-MAX-MESSAGE-BYTES',
      'RULE-INGEST-UNDECODABLE',
      'EVT-TYPE-DEVICE-ERROR',
      'INF-SCHEMAS-EVENT-DEVICE-ERROR',
      'INF-SCHEMAS-DEVICE-ERROR-CODE',
      'INF-SCHEMAS-STREAM-STATUS-X-TRANSITIONS-3',
      'RULE-INGEST-ERROR-EVENTS-ACKNOWLEDGEMENT',
    ],
    `a message over ${rules.maxMessageBytes} bytes and an undecodable one are dropped with device.error, the device stays connected`,
    async (context) => {
      const webhook = await hooks.register(context, 'device-errors', { events: ['device.error'] });
      const stream = await createStream({ format: 'json' });
      const subscriber = await subscribeTo(stream);
      const device = await connectAs(stream);
      try {
        const padded = Buffer.concat([
          encodeSample('json', sampleOf(1)),
          Buffer.alloc(rules.maxMessageBytes + 1024, 0x20),
        ]);
        await device.publish(topicOf(stream.id), padded, { qos: 0 });
        // At most one device.error per stream in errorEvents.perStreamPerSeconds: the next error is sent that long (and
        // a tenth more) after the first was seen, not after it was published, which a loaded target may handle late.
        await hooks.waitFor(
          context,
          webhook,
          (found) => eventsAbout(found, 'device.error', stream.id).length >= 1,
          10_000,
        );
        await sleep(rules.errorEvents.perStreamPerSeconds * 1100);
        await device.publish(topicOf(stream.id), Buffer.from('not a telemetry sample'), { qos: 1 });
        await device.publish(topicOf(stream.id), encodeSample('json', sampleOf(2)), { qos: 1 });
        const deliveries = await hooks.waitFor(
          context,
          webhook,
          (found) => eventsAbout(found, 'device.error', stream.id).length >= 2,
          10_000,
        );
        await waitUntil(() => telemetryOf(subscriber).length > 0, 5000);
        const errors = eventsAbout(deliveries, 'device.error', stream.id);
        const codes = errors.map((delivery) => errorCodeOf(delivery));
        context.evidence(
          'device.error events',
          errors.map((each) => each.event),
        );
        context.evidence('frames', subscriber.frames);
        expectWith(codes.includes('message_too_large'), 'device.error message_too_large', codes);
        expectWith(codes.includes('format_mismatch'), 'device.error format_mismatch', codes);
        expectWith(
          errors.every((each) => objectOf(each).status === 'live'),
          'the stream still live in each device.error',
          errors.map((each) => each.event),
        );
        expectWith(device.client.connected, 'the device still connected', device.packets);
        const acknowledged = device.packets.filter((packet) => packet.cmd === 'puback').length;
        expectWith(
          acknowledged >= 2,
          'the undecodable QoS 1 message acknowledged too (MQTT 3.1.1)',
          device.packets,
        );
        const delivered = telemetryOf(subscriber).map(indexOf);
        expectWith(
          JSON.stringify(delivered) === JSON.stringify([2]),
          'only the good sample on the live feed',
          subscriber.frames,
        );
      } finally {
        await device.close();
        await subscriber.close();
        await deleteStream(stream);
      }
    },
  );

  check(
    [
      'RULE-INGEST-RATE-WINDOW-ALGORITHM',
      'RULE-INGEST-RATE-WINDOW-BURST-SECONDS',
      'RULE-INGEST-RATE-WINDOW-STALL-ALLOWANCE-SECONDS',
      'RULE-INGEST-OVER-RATE',
      'RULE-INGEST-ERROR-EVENTS-PER-STREAM-PER-SECONDS',
    ],
    "a burst three times the quality's rate: a bucket of burstSeconds of samples passes, the excess is dropped, device.error rate_exceeded at most once a second",
    async (context) => {
      const rate = qualityMembers.low.sampleRateHz;
      const webhook = await hooks.register(context, 'over-rate', { events: ['device.error'] });
      const stream = await createStream({ quality: 'low', format: 'json' });
      const subscriber = await subscribeTo(stream);
      const device = await connectAs(stream);
      const burst = rate * 3;
      const started = Date.now();
      try {
        for (let index = 1; index <= burst; index++)
          device.client.publish(topicOf(stream.id), encodeSample('json', sampleOf(index)), { qos: 0 });
        const seconds = (Date.now() - started) / 1000;
        await sleep(settleMs);
        const deliveries = await hooks.waitFor(
          context,
          webhook,
          (found) => eventsAbout(found, 'device.error', stream.id).length > 0,
          5000,
        );
        const errors = eventsAbout(deliveries, 'device.error', stream.id);
        const received = telemetryOf(subscriber).length;
        const summary = { published: burst, seconds, received, deviceErrors: errors.length };
        context.evidence('burst', summary);
        expectWith(
          received <= rate * Math.ceil(seconds + 1),
          `at most ${rate} samples per second delivered`,
          summary,
        );
        expectWith(received > 0 && received < burst, 'some samples delivered, the excess dropped', summary);
        // The bucket holds burstSeconds of samples (jitter plus stallAllowanceSeconds of a pause of the service): a
        // device's messages held back that long and read at once must all pass.
        const bucket = Math.floor(rate * rules.rateWindow.burstSeconds);
        expectWith(received >= bucket, `a full bucket of ${bucket} samples passes at once`, summary);
        const codes = errors.map((each) => errorCodeOf(each));
        expectWith(
          codes.length > 0 && codes.every((code) => code === 'rate_exceeded'),
          'device.error rate_exceeded',
          codes,
        );
        expectWith(
          errors.length <= Math.ceil(seconds + settleMs / 1000) + 1,
          'at most one device.error per second',
          summary,
        );
      } finally {
        await device.close();
        await subscriber.close();
        await deleteStream(stream);
      }
    },
  );
});
