import type { IPublishPacket, Packet } from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { deviceTelemetryAddress, encodeTelemetryJson } from '../../generated/messages/device-telemetry.js';
import { ingestLimits, sampleRateOf } from './ingest-rules.js';
import { eventually, type TestStream, useIngestFixture } from './testing/ingest-fixture.js';
import { blockEventLoop, pacedDeviceThread } from './testing/paced-device-thread.js';
import { connectedDevice, type RawDevice } from './testing/raw-device.js';

const validJson = JSON.stringify({ ts: 1, values: { rpm: 1 } });
const publish = (
  streamId: string,
  payload: string | Buffer,
  messageId: number,
  qos: 0 | 1 = 1,
): IPublishPacket => ({
  cmd: 'publish',
  topic: deviceTelemetryAddress({ streamId }),
  payload,
  qos,
  messageId,
  dup: false,
  retain: false,
});
const pubackOf = (device: RawDevice, messageId: number) =>
  device.next((packet: Packet) => packet.cmd === 'puback' && packet.messageId === messageId, 15_000);
const deviceErrors = async (stream: TestStream) =>
  (await stream.events())
    .filter((event) => event.type === 'device.error')
    .map((event) => (event.data as { error: { code: string; message: string } }).error);

describe('dropped messages raise device.error and keep the connection (x-ingest-rules)', () => {
  const fixture = useIngestFixture();

  const undecodable: Array<[string, 'json' | 'msgpack' | 'csv', string | Buffer]> = [
    ['not JSON', 'json', '{"ts": 1, '],
    ['JSON but not a sample', 'json', JSON.stringify({ ts: -1, values: {} })],
    ['JSON on a msgpack stream', 'msgpack', validJson],
    ['a CSV without a value line', 'csv', 'ts,rpm\n'],
  ];
  for (const [name, format, payload] of undecodable) {
    it(`format_mismatch: ${name} (MQTT 5 PUBACK 0x99)`, async () => {
      const stream = await fixture().createStream({ format });
      const { device } = await connectedDevice(fixture().server.port, stream, 5);
      device.send(publish(stream.id, payload, 1));
      expect(await pubackOf(device, 1)).toMatchObject({ reasonCode: 0x99 });
      await eventually(async () => (await deviceErrors(stream)).length === 1);
      expect((await deviceErrors(stream))[0]?.code).toBe('format_mismatch');
      expect(stream.samples()).toEqual([]);
      expect(device.isClosed()).toBe(false);
      device.end();
    });
  }

  for (const [name, bytes] of [
    ['one byte over the limit', ingestLimits.maxMessageBytes + 1],
    ['a megabyte, never buffered', 1024 * 1024],
  ] as const) {
    it(`message_too_large: ${name} (MQTT 5 PUBACK 0x83); the next message is accepted`, async () => {
      const stream = await fixture().createStream();
      const { device } = await connectedDevice(fixture().server.port, stream, 5);
      device.send(publish(stream.id, Buffer.alloc(bytes, 0x20), 1));
      expect(await pubackOf(device, 1)).toMatchObject({ reasonCode: 0x83 });
      device.send(publish(stream.id, validJson, 2));
      expect(await pubackOf(device, 2)).toMatchObject({ reasonCode: 0 });
      expect(stream.samples()).toHaveLength(1);
      await eventually(async () => (await deviceErrors(stream)).length === 1);
      expect((await deviceErrors(stream))[0]?.code).toBe('message_too_large');
      device.end();
    });
  }

  it('message_too_large under MQTT 3.1.1: acknowledged, dropped, connection kept', async () => {
    const stream = await fixture().createStream();
    const { device } = await connectedDevice(fixture().server.port, stream, 4);
    device.send(publish(stream.id, Buffer.alloc(200_000, 0x20), 1));
    await pubackOf(device, 1);
    expect(stream.samples()).toEqual([]);
    expect(device.isClosed()).toBe(false);
    device.end();
  });

  it('rate_exceeded: a burst beyond the bucket is dropped (MQTT 5 PUBACK 0x97), the connection stays', async () => {
    const stream = await fixture().createStream({ quality: 'low' });
    const { device } = await connectedDevice(fixture().server.port, stream, 5);
    const sent = 300;
    const sample = encodeTelemetryJson({ ts: 1, values: { rpm: 1 } }) as string;
    for (let index = 1; index <= sent; index += 1) device.send(publish(stream.id, sample, index));
    const acknowledgements = await Promise.all(
      Array.from({ length: sent }, (_, index) => pubackOf(device, index + 1)),
    );
    const refused = acknowledgements.filter(
      (packet) => (packet as { reasonCode?: number }).reasonCode === 0x97,
    );
    expect(refused.length).toBeGreaterThan(0);
    expect(stream.samples().length + refused.length).toBe(sent);
    await eventually(async () => (await deviceErrors(stream)).length === 1);
    expect((await deviceErrors(stream))[0]).toMatchObject({ code: 'rate_exceeded' });
    expect(device.isClosed()).toBe(false);
    device.end();
  });

  it('at most one device.error per stream per second; the next one counts what the bound held back', async () => {
    const stream = await fixture().createStream();
    const { device } = await connectedDevice(fixture().server.port, stream, 4);
    const started = Date.now();
    for (let index = 1; index <= 50; index += 1) device.send(publish(stream.id, 'garbage', index));
    await pubackOf(device, 50);
    const elapsed = Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Only meaningful when the 50 arrived within the interval (always, unless the machine stalled for a second).
    if (elapsed < ingestLimits.errorIntervalMilliseconds) expect(await deviceErrors(stream)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, ingestLimits.errorIntervalMilliseconds));
    device.send(publish(stream.id, 'garbage', 51));
    await pubackOf(device, 51);
    await eventually(async () => (await deviceErrors(stream)).length === 2);
    expect((await deviceErrors(stream))[1]?.message).toContain(
      '50 messages dropped since the last device.error',
    );
    device.end();
  });

  it('a device at exactly its rate loses nothing while the service stops reading (rateWindow.stallAllowanceSeconds)', async () => {
    const rate = sampleRateOf('high');
    const stream = await fixture().createStream({ quality: 'high' });
    const device = pacedDeviceThread(fixture().url, stream, rate, rate * 2);
    await device.sending;
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Two thirds of the allowance, so that a loaded machine's own scheduling delays fit in the rest.
    blockEventLoop(ingestLimits.stallAllowanceSeconds * 1000 * (2 / 3));
    const sent = await device.done;
    await eventually(() => stream.samples().length >= sent || stream.messages.at(-1)?.type === 'status');
    expect(stream.samples().length).toBe(sent);
    expect(await deviceErrors(stream)).toEqual([]);
  });
});
