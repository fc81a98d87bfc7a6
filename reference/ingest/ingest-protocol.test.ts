import { generate } from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { deviceTelemetryAddress } from '../../generated/messages/device-telemetry.js';
import { eventTypesOf, eventually, useIngestFixture } from './testing/ingest-fixture.js';
import { connectedDevice, connectPacket, rawDevice, samplePublish } from './testing/raw-device.js';

describe('the MQTT protocol of ingest (x-ingest-rules.unsupported, retain, keep-alive, sessions)', () => {
  const fixture = useIngestFixture();

  for (const version of [4, 5] as const) {
    const name = version === 4 ? '3.1.1' : '5';

    it(`MQTT ${name}: a PUBLISH to another topic is dropped, without device.error, and the connection stays`, async () => {
      const [stream, other] = [await fixture().createStream(), await fixture().createStream()];
      const { device } = await connectedDevice(fixture().server.port, stream, version);
      device.send(samplePublish(other.id, { messageId: 7 }));
      const refused = await device.next((packet) => packet.cmd === 'puback');
      expect(refused).toMatchObject({ messageId: 7, ...(version === 5 ? { reasonCode: 0x87 } : {}) });
      device.send(samplePublish(stream.id, { messageId: 8 }));
      expect(await device.next((packet) => packet.cmd === 'puback')).toMatchObject({ messageId: 8 });
      expect(stream.samples()).toHaveLength(1);
      expect(other.messages).toEqual([]);
      expect(await eventTypesOf(stream)).toEqual(['device.online']);
      device.end();
    });

    it(`MQTT ${name}: SUBSCRIBE is refused for every filter, UNSUBSCRIBE answered, PINGREQ answered`, async () => {
      const stream = await fixture().createStream();
      const { device } = await connectedDevice(fixture().server.port, stream, version);
      device.send({
        cmd: 'subscribe',
        messageId: 3,
        subscriptions: [
          { topic: deviceTelemetryAddress({ streamId: stream.id }), qos: 0 },
          { topic: '#', qos: 1 },
        ],
      });
      const failure = version === 4 ? 0x80 : 0x87;
      expect(await device.next((packet) => packet.cmd === 'suback')).toMatchObject({
        messageId: 3,
        granted: [failure, failure],
      });
      device.send({ cmd: 'unsubscribe', messageId: 4, unsubscriptions: ['#'] });
      expect(await device.next((packet) => packet.cmd === 'unsuback')).toMatchObject({ messageId: 4 });
      device.send({ cmd: 'pingreq' });
      await device.next((packet) => packet.cmd === 'pingresp');
      expect(device.isClosed()).toBe(false);
      device.end();
    });

    it(`MQTT ${name}: QoS 2 ends the connection${version === 5 ? ' with DISCONNECT 0x9B' : ''}; the stream goes idle`, async () => {
      const stream = await fixture().createStream();
      const { device } = await connectedDevice(fixture().server.port, stream, version);
      device.send(samplePublish(stream.id, { qos: 2 }));
      if (version === 5)
        expect(await device.next((packet) => packet.cmd === 'disconnect')).toMatchObject({
          reasonCode: 0x9b,
        });
      await device.closed();
      expect(stream.samples()).toEqual([]);
      await eventually(async () => (await eventTypesOf(stream)).join() === 'device.online,device.offline');
    });
  }

  it.each([
    ['MQTT 3.1 (MQIsdp, level 3)', 3],
    ['a level no MQTT version has (6)', 6],
  ])('a CONNECT of %s is refused with CONNACK return code 1, and closed', async (_name, level) => {
    const stream = await fixture().createStream();
    const device = await rawDevice(fixture().server.port, 4);
    const packet = generate(
      connectPacket(stream, 4, level === 3 ? { protocolId: 'MQIsdp', protocolVersion: 3 } : {}),
    );
    // The level is the byte after the protocol name, which follows a one-byte remaining length here.
    if (level !== 3) packet[2 + 2 + packet.readUInt16BE(2)] = level;
    device.send(packet);
    expect(await device.next((received) => received.cmd === 'connack')).toMatchObject({ returnCode: 1 });
    await device.closed();
    expect(await eventTypesOf(stream)).toEqual([]);
  });

  it('MQTT 5 CONNACK announces Maximum QoS 1', async () => {
    const stream = await fixture().createStream();
    const { device, connack } = await connectedDevice(fixture().server.port, stream, 5);
    expect(connack).toMatchObject({ reasonCode: 0, properties: { maximumQoS: 1 } });
    device.end();
  });

  it('the retain flag is ignored: the sample is ingested like any other and never sent back', async () => {
    const stream = await fixture().createStream();
    const first = await connectedDevice(fixture().server.port, stream, 4);
    first.device.send(samplePublish(stream.id, { retain: true }));
    await first.device.next((packet) => packet.cmd === 'puback');
    expect(stream.samples()).toHaveLength(1);
    first.device.end();
    await eventually(async () => (await eventTypesOf(stream)).length === 2);
    const again = await connectedDevice(fixture().server.port, stream, 4);
    again.device.send({ cmd: 'pingreq' });
    await again.device.next((packet) => packet.cmd === 'pingresp');
    expect(again.device.received.map((packet) => packet.cmd)).toEqual(['connack', 'pingresp']);
    again.device.end();
  });

  it('a device silent for 1.5 × its keep-alive is disconnected: idle, device.offline with endedAt', async () => {
    const stream = await fixture().createStream();
    const { device } = await connectedDevice(fixture().server.port, stream, 4, { keepalive: 1 });
    const connectedAt = Date.now();
    await device.closed(10_000);
    expect(Date.now() - connectedAt).toBeGreaterThanOrEqual(1400);
    await eventually(async () => (await eventTypesOf(stream)).length === 2);
    const offline = (await stream.events())[1];
    expect(offline).toMatchObject({ type: 'device.offline', data: { object: { status: 'idle' } } });
    expect(offline?.data).toMatchObject({ object: { endedAt: expect.stringMatching(/Z$/) } });
    expect(await fixture().store.streams.getById(stream.id)).toMatchObject({
      status: 'idle',
      startedAt: null,
    });
  });

  it('PINGREQ keeps a device with a short keep-alive connected', async () => {
    const stream = await fixture().createStream();
    const { device } = await connectedDevice(fixture().server.port, stream, 4, { keepalive: 1 });
    for (let ping = 0; ping < 6; ping += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      device.send({ cmd: 'pingreq' });
    }
    expect(device.isClosed()).toBe(false);
    device.end();
  });

  it('a restart idles streams a crash left live, with device.offline; stopping disconnects devices', async () => {
    const crashed = await fixture().createStream();
    await fixture().store.streams.setLive(crashed.id, new Date().toISOString());
    const connected = await fixture().createStream();
    const { device } = await connectedDevice(fixture().server.port, connected, 5);
    await fixture().restart();
    if (!device.isClosed()) await device.closed();
    expect(device.received.at(-1)).toMatchObject({ cmd: 'disconnect', reasonCode: 0x8b });
    for (const stream of [crashed, connected]) {
      expect(await fixture().store.streams.getById(stream.id)).toMatchObject({
        status: 'idle',
        startedAt: null,
      });
      expect((await stream.events()).at(-1)).toMatchObject({ type: 'device.offline' });
    }
    const again = await connectedDevice(fixture().server.port, connected, 4);
    expect(again.connack).toMatchObject({ returnCode: 0 });
    again.device.end();
  });
});
