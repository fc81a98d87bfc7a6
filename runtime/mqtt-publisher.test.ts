import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MqttRecorder, startMqttRecorder } from '../tests/support/mqtt-recorder.js';
import { AddressParameterError, compileAddressTemplate } from './address-template.js';
import { jsonCodec, msgpackCodec, textCodec } from './codecs/index.js';
import { createMqttPublisher, type MqttPublisherOptions } from './mqtt-publisher.js';

type Reading = { value: number };
const channel = {
  address: compileAddressTemplate<{ sensorId: string }>('sensors/{sensorId}', 'topic'),
  codecs: {
    reading: jsonCodec<Reading>('application/json'),
    packed: msgpackCodec<Reading>('application/vnd.msgpack'),
    line: textCodec('text/plain'),
  },
};

describe('createMqttPublisher', () => {
  let broker: MqttRecorder;
  let options: MqttPublisherOptions<{ sensorId: string }>;
  beforeEach(async () => {
    broker = await startMqttRecorder((connect) => connect.password?.toString() !== 'wrong');
    options = { url: broker.url, parameters: { sensorId: 's1' }, username: 's1', password: 'secret' };
  });
  afterEach(() => broker.close());

  it('connects with the credentials, turns Nagle off and publishes each message with its codec', async () => {
    const setNoDelay = vi.spyOn(net.Socket.prototype, 'setNoDelay');
    const publisher = await createMqttPublisher(channel, options);
    const port = Number(new URL(broker.url).port);
    expect(setNoDelay.mock.contexts.some((socket) => (socket as net.Socket).remotePort === port)).toBe(true);
    setNoDelay.mockRestore();
    await publisher.publish('reading', { value: 1.5 });
    await publisher.publish('packed', { value: -2 }, { qos: 1, retain: true });
    await publisher.publish('line', 'raw text', { qos: 1 });
    await publisher.close();
    expect(broker.connects[0]).toMatchObject({ username: 's1', password: Buffer.from('secret') });
    expect(
      broker.publishes.map(({ topic, payload, qos, retain }) => [
        topic,
        payload.toString('hex'),
        qos,
        retain,
      ]),
    ).toEqual([
      ['sensors/s1', Buffer.from('{"value":1.5}').toString('hex'), 0, false],
      ['sensors/s1', Buffer.from(channel.codecs.packed.encode({ value: -2 })).toString('hex'), 1, true],
      ['sensors/s1', Buffer.from('raw text').toString('hex'), 1, false],
    ]);
  });

  it('sends the content type with each message in MQTT 5', async () => {
    const publisher = await createMqttPublisher(channel, { ...options, protocolVersion: 5 });
    await publisher.publish('packed', { value: 3 }, { qos: 1 });
    await publisher.close();
    expect(broker.publishes[0]?.contentType).toBe('application/vnd.msgpack');
  });

  it('rejects when the broker refuses the connection', async () => {
    await expect(createMqttPublisher(channel, { ...options, password: 'wrong' })).rejects.toThrow(
      /Not authorized/i,
    );
  });

  it('refuses parameters the topic cannot carry before connecting', async () => {
    await expect(createMqttPublisher(channel, { ...options, parameters: { sensorId: '#' } })).rejects.toThrow(
      AddressParameterError,
    );
    expect(broker.connects).toEqual([]);
  });

  it('rejects a publish once the broker is gone instead of queueing it', async () => {
    const errors: Error[] = [];
    const publisher = await createMqttPublisher(channel, {
      ...options,
      onError: (error) => errors.push(error),
    });
    broker.dropClients();
    await vi.waitFor(() => expect(publisher.connected).toBe(false));
    await expect(publisher.publish('reading', { value: 1 })).rejects.toThrow(/not connected/);
    await publisher.close();
  });
});
