import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import mqtt, { type Packet } from 'mqtt';
import { describe, expect, it } from 'vitest';
import {
  createDeviceTelemetryPublisher,
  deviceTelemetryAddress,
  deviceTelemetryMessagesByFormat,
} from '../../generated/messages/device-telemetry.js';
import { eventually, useIngestFixture } from './testing/ingest-fixture.js';

const run = promisify(execFile);
const sample = (ts: number) => ({ ts, values: { rpm: 1480 + ts, vibration_mm_s: 2.5 } });

async function hasMosquittoPub(): Promise<boolean> {
  try {
    await run('mosquitto_pub', ['--help']);
    return true;
  } catch (error) {
    // --help exits 1 but proves the binary is there.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}
const mosquittoPub = await hasMosquittoPub();
if (!mosquittoPub)
  console.warn('mosquitto_pub is not installed (scripts/setup-mosquitto.sh): its tests skip');

describe('devices publish with every client', () => {
  const fixture = useIngestFixture();

  for (const format of ['json', 'msgpack', 'csv'] as const) {
    for (const protocolVersion of [4, 5] as const) {
      it(`the generated publisher (${format}, MQTT ${protocolVersion === 4 ? '3.1.1' : '5'})`, async () => {
        const stream = await fixture().createStream({ format, quality: 'low' });
        const publisher = await createDeviceTelemetryPublisher({
          url: fixture().url,
          parameters: { streamId: stream.id },
          username: stream.id,
          password: stream.key,
          protocolVersion,
        });
        const messageId = deviceTelemetryMessagesByFormat[format];
        for (let ts = 1; ts <= 5; ts += 1) await publisher.publish(messageId, sample(ts), { qos: 1 });
        await publisher.close();
        expect(stream.samples()).toEqual([1, 2, 3, 4, 5].map(sample));
        await eventually(() => stream.messages.length === 7);
        expect(stream.messages.map((message) => message.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
        await eventually(async () => (await stream.events()).length === 2);
        const [online, offline] = await stream.events();
        expect(online?.type).toBe('device.online');
        expect(offline?.type).toBe('device.offline');
        expect(await fixture().store.streams.getById(stream.id)).toMatchObject({
          status: 'idle',
          startedAt: null,
        });
      });
    }
  }

  for (const protocolVersion of [4, 5] as const) {
    it(`mqtt.js (MQTT ${protocolVersion === 4 ? '3.1.1' : '5'}): QoS 0 and QoS 1 with PUBACK, status messages around the samples`, async () => {
      const stream = await fixture().createStream();
      const client = await mqtt.connectAsync(fixture().url, {
        username: stream.id,
        password: stream.key,
        protocolVersion,
        reconnectPeriod: 0,
      });
      const received: Packet[] = [];
      client.on('packetreceive', (packet) => received.push(packet));
      const topic = deviceTelemetryAddress({ streamId: stream.id });
      await client.publishAsync(topic, JSON.stringify(sample(1)), { qos: 0 });
      await client.publishAsync(topic, JSON.stringify(sample(2)), { qos: 1 });
      expect(received).toMatchObject([{ cmd: 'puback' }]);
      if (protocolVersion === 5) expect(received[0]).toMatchObject({ reasonCode: 0 });
      await client.endAsync();
      await eventually(() => stream.messages.length === 4);
      expect(stream.messages.map((message) => [message.seq, message.type])).toEqual([
        [1, 'status'],
        [2, 'telemetry'],
        [3, 'telemetry'],
        [4, 'status'],
      ]);
      expect(stream.messages[0]).toMatchObject({ status: 'live', subscriberCount: 0 });
      expect(stream.messages[3]).toMatchObject({ status: 'idle' });
    });
  }

  for (const version of ['mqttv311', 'mqttv5'] as const) {
    it.skipIf(!mosquittoPub)(`mosquitto_pub (${version})`, async () => {
      const stream = await fixture().createStream();
      const port = String(fixture().server.port);
      await run('mosquitto_pub', [
        ...['-h', '127.0.0.1', '-p', port, '-V', version, '-q', '1'],
        ...['-u', stream.id, '-P', stream.key, '-t', deviceTelemetryAddress({ streamId: stream.id })],
        ...['-m', JSON.stringify(sample(7))],
      ]);
      expect(stream.samples()).toEqual([sample(7)]);
      await eventually(async () => (await stream.events()).length === 2);
    });
  }
});
