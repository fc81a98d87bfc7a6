import mqtt from 'mqtt';
import type { IPublishPacket, Packet } from 'mqtt-packet';
import { afterEach, describe, expect, it } from 'vitest';
import { deviceTelemetryAddress } from '../../generated/messages/device-telemetry.js';
import type { LoadReading, LoadSignal } from './event-loop-lag.js';
import { defaultOverloadSettings, OverloadGuard } from './overload-guard.js';
import { eventually, type TestStream, useIngestFixture } from './testing/ingest-fixture.js';
import { connectedDevice, type RawDevice } from './testing/raw-device.js';

/** The load signal, set by the test: overload is forced deterministically, whatever the machine is doing. */
class ForcedLoad implements LoadSignal {
  reading: LoadReading = { lagMilliseconds: 0, utilization: 0, ingestShare: 0 };
  read(): LoadReading {
    return this.reading;
  }
  recordIngestTime(): void {}
  close(): void {}
}

const load = new ForcedLoad();
const guard = new OverloadGuard(load, {
  // The service's thresholds, read faster and left sooner so the tests are short.
  ...defaultOverloadSettings,
  sampleIntervalMilliseconds: 20,
  exitReadings: 3,
});
async function overload(): Promise<void> {
  load.reading = { lagMilliseconds: 1000, utilization: 1, ingestShare: 1 };
  await eventually(() => guard.overloaded);
}
async function recover(): Promise<void> {
  load.reading = { lagMilliseconds: 0, utilization: 0.1, ingestShare: 0.1 };
  await eventually(() => !guard.overloaded);
}

const publish = (streamId: string, ts: number, messageId: number, qos: 0 | 1): IPublishPacket => ({
  cmd: 'publish',
  topic: deviceTelemetryAddress({ streamId }),
  payload: JSON.stringify({ ts, values: { rpm: ts } }),
  qos,
  messageId,
  dup: false,
  retain: false,
});
const pubackOf = (device: RawDevice, messageId: number) =>
  device.next((packet: Packet) => packet.cmd === 'puback' && packet.messageId === messageId, 10_000);
const pingThrough = async (device: RawDevice) => {
  device.send({ cmd: 'pingreq' });
  await device.next((packet) => packet.cmd === 'pingresp');
};
const deviceErrorCodes = async (stream: TestStream) =>
  (await stream.events())
    .filter((event) => event.type === 'device.error')
    .map((event) => (event.data as { error: { code: string } }).error.code);

describe('an overloaded service sheds load (x-ingest-rules.overload)', () => {
  const fixture = useIngestFixture({ overload: guard });
  afterEach(recover);

  it('refuses a new device before authentication: MQTT 5 CONNACK 0x89, MQTT 3.1.1 return code 3; accepts it after', async () => {
    const stream = await fixture().createStream();
    await overload();
    const refusedBefore = guard.counts.refusedConnections;
    const five = await connectedDevice(fixture().server.port, stream, 5);
    expect(five.connack).toMatchObject({ cmd: 'connack', reasonCode: 0x89 });
    await five.device.closed();
    const three = await connectedDevice(fixture().server.port, stream, 4);
    expect(three.connack).toMatchObject({ cmd: 'connack', returnCode: 3 });
    await three.device.closed();
    // A wrong key is refused as busy too: nothing was looked up.
    const wrongKey = await connectedDevice(fixture().server.port, { id: stream.id, key: 'sk_wrong' }, 5);
    expect(wrongKey.connack).toMatchObject({ reasonCode: 0x89 });
    const client = mqtt.connectAsync(fixture().url, {
      username: stream.id,
      password: stream.key,
      protocolVersion: 5,
      reconnectPeriod: 0,
    });
    await expect(client).rejects.toMatchObject({ code: 0x89 });
    expect(guard.counts.refusedConnections - refusedBefore).toBe(4);
    expect(await fixture().store.streams.getById(stream.id)).toMatchObject({ status: 'idle' });

    await recover();
    const after = await connectedDevice(fixture().server.port, stream, 5);
    expect(after.connack).toMatchObject({ reasonCode: 0 });
    after.device.end();
  });

  it('MQTT 5: drops samples with device.error service_overloaded, refuses QoS 1 with PUBACK 0x97, keeps the connection', async () => {
    const stream = await fixture().createStream();
    const { device } = await connectedDevice(fixture().server.port, stream, 5);
    device.send(publish(stream.id, 1, 1, 1));
    expect(await pubackOf(device, 1)).toMatchObject({ reasonCode: 0 });

    await overload();
    const shedBefore = guard.counts.shedMessages;
    device.send(publish(stream.id, 2, 2, 1));
    for (let ts = 3; ts < 13; ts += 1) device.send(publish(stream.id, ts, 0, 0));
    device.send(publish(stream.id, 13, 3, 1));
    const refused = await pubackOf(device, 2);
    expect(refused).toMatchObject({ reasonCode: 0x97, properties: { reasonString: 'service_overloaded' } });
    expect(await pubackOf(device, 3)).toMatchObject({ reasonCode: 0x97 });
    expect(guard.counts.shedMessages - shedBefore).toBe(12);
    expect(stream.samples().map((sample) => sample.ts)).toEqual([1]);
    expect(device.isClosed()).toBe(false);
    // At most one device.error per stream per second, whatever was shed.
    await eventually(async () => (await deviceErrorCodes(stream)).length === 1);
    expect(await deviceErrorCodes(stream)).toEqual(['service_overloaded']);

    await recover();
    device.send(publish(stream.id, 14, 4, 1));
    expect(await pubackOf(device, 4)).toMatchObject({ reasonCode: 0 });
    expect(stream.samples().map((sample) => sample.ts)).toEqual([1, 14]);
    device.end();
  });

  it('MQTT 3.1.1: drops QoS 0 and keeps the connection; closes it on QoS 1 without a PUBACK, which is sent again after recovery', async () => {
    const stream = await fixture().createStream();
    const first = await connectedDevice(fixture().server.port, stream, 4);
    first.device.send(publish(stream.id, 1, 0, 0));
    await eventually(() => stream.samples().length === 1);

    await overload();
    first.device.send(publish(stream.id, 2, 0, 0));
    await pingThrough(first.device);
    expect(first.device.isClosed()).toBe(false);
    first.device.send(publish(stream.id, 3, 7, 1));
    await first.device.closed();
    expect(first.device.received.filter((packet) => packet.cmd === 'puback')).toEqual([]);
    expect(stream.samples().map((sample) => sample.ts)).toEqual([1]);
    await eventually(async () => (await fixture().store.streams.getById(stream.id))?.status === 'idle');

    await recover();
    const again = await connectedDevice(fixture().server.port, stream, 4);
    expect(again.connack).toMatchObject({ returnCode: 0 });
    again.device.send({ ...publish(stream.id, 3, 7, 1), dup: true });
    expect(await pubackOf(again.device, 7)).toMatchObject({ cmd: 'puback' });
    expect(stream.samples().map((sample) => sample.ts)).toEqual([1, 3]);
    expect(await deviceErrorCodes(stream)).toContain('service_overloaded');
    again.device.end();
  });
});
