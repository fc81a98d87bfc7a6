import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { generate, type IPublishPacket } from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import {
  createDeviceTelemetryPublisher,
  deviceTelemetryAddress,
} from '../../generated/messages/device-telemetry.js';
import { ingestLimits } from './ingest-rules.js';
import { eventually, useIngestFixture } from './testing/ingest-fixture.js';
import { connectedDevice, connectPacket, rawDevice } from './testing/raw-device.js';

const publish = (streamId: string, payload: string, messageId: number, qos: 0 | 1): IPublishPacket => ({
  cmd: 'publish',
  topic: deviceTelemetryAddress({ streamId }),
  payload,
  qos,
  messageId,
  dup: false,
  retain: false,
});

/**
 * A CONNECT whose remaining length says 1 MiB: a password of 65,535 bytes (MQTT's largest binary field) and filler.
 * mqtt-packet's own parser would buffer all of it before looking.
 */
function megabyteConnect(stream: { id: string; key: string }, version: 4 | 5): Buffer {
  const real = generate(connectPacket(stream, version, { password: Buffer.alloc(65_535, 0x61) }), {
    protocolVersion: version,
  });
  const lengthBytes = real.subarray(1).findIndex((byte) => (byte & 0x80) === 0) + 1;
  const body = real.subarray(1 + lengthBytes);
  const remaining = 1024 * 1024;
  const header = Buffer.from([0x10, 0x80, 0x80, 0x40]); // 1 MiB as a variable byte integer
  expect(remaining).toBe(0x40 * 128 * 128);
  return Buffer.concat([header, body, Buffer.alloc(remaining - body.length)]);
}

/** The server still serves a real device: the check after every bad input. */
async function stillServes(port: number, stream: { id: string; key: string }): Promise<void> {
  const { device, connack } = await connectedDevice(port, stream, 4);
  expect(connack).toMatchObject({ returnCode: 0 });
  device.send(publish(stream.id, JSON.stringify({ ts: 9, values: { a: 1 } }), 1, 1));
  await device.next((packet) => packet.cmd === 'puback');
  device.end();
}

describe('bad input closes only the connection that sent it', () => {
  const fixture = useIngestFixture();

  it('garbage bytes on the port', { timeout: 30_000 }, async () => {
    const device = await rawDevice(fixture().server.port);
    device.send(randomBytes(4096));
    // Closed at once when the bytes cannot be a packet, or at the CONNECT deadline when they read as an unfinished one.
    await device.closed(ingestLimits.connectDeadlineMilliseconds + 5000);
    await stillServes(fixture().server.port, await fixture().createStream());
  });

  for (const version of [4, 5] as const) {
    it(`a 1 MB CONNECT (the largest password MQTT can carry, then more) is refused before it is read (MQTT ${version === 4 ? '3.1.1' : '5'})`, async () => {
      const stream = await fixture().createStream();
      const device = await rawDevice(fixture().server.port, version);
      device.send(megabyteConnect(stream, version).subarray(0, 64 * 1024));
      // Only the first 64 KiB were sent: the refusal cannot depend on the rest.
      const connack = await device.next((reply) => reply.cmd === 'connack');
      expect(connack).toMatchObject(version === 5 ? { reasonCode: 0x95 } : { returnCode: 4 });
      await device.closed();
      expect(await fixture().store.streams.getById(stream.id)).toMatchObject({ status: 'idle' });
    });
  }

  it('a malformed packet closes only that connection; its stream goes idle, the other keeps publishing', async () => {
    const [broken, healthy] = [await fixture().createStream(), await fixture().createStream()];
    const first = await connectedDevice(fixture().server.port, broken, 5);
    const second = await connectedDevice(fixture().server.port, healthy, 5);
    // PUBLISH with both QoS bits set [MQTT-3.3.1-4].
    first.device.send(Buffer.from([0x36, 0x02, 0x00, 0x00]));
    await first.device.closed();
    second.device.send(publish(healthy.id, JSON.stringify({ ts: 1, values: { a: 1 } }), 1, 1));
    expect(await second.device.next((packet) => packet.cmd === 'puback')).toMatchObject({ reasonCode: 0 });
    await eventually(
      async () =>
        (await broken.events()).map((event) => event.type).join() === 'device.online,device.offline',
    );
    second.device.end();
  });

  it('a remaining length longer than four bytes closes the connection', async () => {
    const stream = await fixture().createStream();
    const { device } = await connectedDevice(fixture().server.port, stream, 4);
    device.send(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x7f]));
    await device.closed();
  });

  it('2,000 connections that never send CONNECT are closed at the deadline', async () => {
    const count = 2000;
    const opened = Date.now();
    const sockets: Socket[] = [];
    const closedAt: number[] = [];
    // In batches the server has accepted, so the kernel's accept queue is not what the test measures.
    for (let batch = 0; batch < count / 250; batch += 1) {
      for (let index = 0; index < 250; index += 1) {
        const socket = connect({ host: '127.0.0.1', port: fixture().server.port });
        socket.on('error', () => {});
        socket.on('close', () => closedAt.push(Date.now()));
        sockets.push(socket);
      }
      await eventually(() => fixture().server.connectionCount() >= sockets.length - closedAt.length);
    }
    await eventually(() => closedAt.length === count, ingestLimits.connectDeadlineMilliseconds + 30_000);
    expect(Math.min(...closedAt) - opened).toBeGreaterThanOrEqual(
      ingestLimits.connectDeadlineMilliseconds - 1000,
    );
    await eventually(() => fixture().server.connectionCount() === 0);
    await stillServes(fixture().server.port, await fixture().createStream());
  }, 90_000);

  it('a device publishing as fast as it can is rate-limited; another at 1 kHz loses nothing', async () => {
    const [flooding, steady] = [
      await fixture().createStream(),
      await fixture().createStream({ quality: 'high' }),
    ];
    const flood = await connectedDevice(fixture().server.port, flooding, 4);
    const batch = Buffer.concat(
      Array.from({ length: 1000 }, () => generate(publish(flooding.id, '{"ts":1,"values":{"a":1}}', 0, 0))),
    );
    let floodSent = 0;
    let flooding_ = true;
    const pump = async () => {
      while (flooding_ && !flood.device.isClosed()) {
        floodSent += 1000;
        if (!flood.device.socket.write(batch))
          await new Promise((resolve) => flood.device.socket.once('drain', resolve));
        else await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const pumping = pump();
    const publisher = await createDeviceTelemetryPublisher({
      url: fixture().url,
      parameters: { streamId: steady.id },
      username: steady.id,
      password: steady.key,
    });
    const total = 1000;
    // Paced at 1 kHz like a device: a device whose timer was held up catches up, but (as this test process may be
    // held up by the load it makes) never by more than a fifth of its burst at once, so it stays within its rate.
    const catchUp = Math.round(1000 * ingestLimits.burstSeconds * 0.2);
    let started = performance.now();
    for (let index = 0; index < total; ) {
      const behind = Math.floor(performance.now() - started) + 1 - index;
      if (behind > catchUp) started += behind - catchUp;
      const due = Math.min(total, Math.floor(performance.now() - started) + 1);
      for (; index < due; index += 1)
        await publisher.publish('telemetryJson', { ts: index, values: { a: index } });
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await eventually(() => steady.samples().length === total, 20_000).catch(async (error) => {
      console.error(
        'steady',
        steady.samples().length,
        'flood sent',
        floodSent,
        'accepted',
        flooding.samples().length,
        JSON.stringify(await steady.events()),
      );
      throw error;
    });
    flooding_ = false;
    await pumping;
    await publisher.close();
    expect(steady.samples().map((sample) => sample.ts)).toEqual(
      Array.from({ length: total }, (_, index) => index),
    );
    expect(floodSent).toBeGreaterThan(flooding.samples().length);
    await eventually(async () => (await flooding.events()).some((event) => event.type === 'device.error'));
    expect(flood.device.isClosed()).toBe(false);
    flood.device.end();
  }, 60_000);
});
