import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { parse } from 'yaml';
import {
  createDeviceTelemetryPublisher,
  deviceTelemetryAddress,
  deviceTelemetryContentTypes,
  deviceTelemetryDecodersByFormat,
  deviceTelemetryEncodersByFormat,
  deviceTelemetryMessagesByFormat,
  liveFeedAddress,
  parseDeviceTelemetryAddress,
  parseLiveFeedAddress,
  subscribeLiveFeed,
  webhookDeliveryAddress,
} from '../generated/messages/index.js';
import type { Format, LiveFrame, TelemetrySample } from '../generated/types/schemas.js';
import { CodecError } from '../runtime/codecs/index.js';
import { startMqttRecorder } from './support/mqtt-recorder.js';

const repositoryRoot = path.resolve(import.meta.dirname, '..');
// The spec's own examples, so that the codecs are held to what the document shows rather than to copies of it.
const specFile = (file: string) => parse(readFileSync(path.join(repositoryRoot, 'spec', file), 'utf8'));
const telemetryMessages = specFile('asyncapi.yaml').components.messages;
const sample: TelemetrySample = telemetryMessages.TelemetryJson.examples[0].payload;
const csvExample: string = telemetryMessages.TelemetryCsv.payload.examples[0];
const liveFrame: LiveFrame = specFile('schemas/live-frame.yaml').examples[0];
// Every format of a stream has a message: this fails to compile when the spec's Format enum and x-format part ways.
const formats = Object.keys(deviceTelemetryMessagesByFormat) as Format[];
deviceTelemetryEncodersByFormat satisfies Record<Format, unknown>;

describe('generated/messages: addresses', () => {
  it('builds and parses the MQTT topic and the WebSocket path of a stream', () => {
    expect(deviceTelemetryAddress({ streamId: 'stm_8fJ2kQ9xLmN3pR7t' })).toBe('devices/stm_8fJ2kQ9xLmN3pR7t');
    expect(parseDeviceTelemetryAddress('devices/stm_1')).toEqual({ streamId: 'stm_1' });
    expect(parseDeviceTelemetryAddress('devices/stm_1/extra')).toBeNull();
    expect(liveFeedAddress({ streamId: 'stm 1' })).toBe('/devices/stm%201/live');
    expect(parseLiveFeedAddress('/devices/stm%201/live')).toEqual({ streamId: 'stm 1' });
    expect(() => deviceTelemetryAddress({ streamId: 'stm_1/#' })).toThrow(/cannot carry/);
    expect(webhookDeliveryAddress({ webhookUrl: 'https://hooks.example.com/t' })).toBe(
      'https://hooks.example.com/t',
    );
  });
});

describe('generated/messages: telemetry codecs', () => {
  it('encodes the JSON example to the CSV example of the spec, and back', () => {
    expect(deviceTelemetryEncodersByFormat.csv(sample)).toBe(csvExample);
    expect(deviceTelemetryDecodersByFormat.csv(csvExample)).toStrictEqual(sample);
  });

  it.each(formats)('round-trips a sample through %s losslessly', (format) => {
    const awkward = { ts: 1795253472250, values: { a: -0.5, b: 1e-7, c: 6.02e23, d: 1 / 3, e: -42 } };
    const encoded = deviceTelemetryEncodersByFormat[format](awkward);
    expect(deviceTelemetryDecodersByFormat[format](encoded)).toStrictEqual(awkward);
  });

  it.each(formats)('refuses a payload that is not %s with a CodecError', (format) => {
    expect(() => deviceTelemetryDecodersByFormat[format]('')).toThrow(CodecError);
  });
});

describe('generated/messages: MQTT publisher', () => {
  it('publishes a sample in each format of a stream to its topic, with Nagle off', async () => {
    const broker = await startMqttRecorder();
    const setNoDelay = vi.spyOn(net.Socket.prototype, 'setNoDelay');
    try {
      const streamId = 'stm_8fJ2kQ9xLmN3pR7t';
      const options = { url: broker.url, username: streamId, password: 'sk_test', parameters: { streamId } };
      const publisher = await createDeviceTelemetryPublisher({ ...options, protocolVersion: 5 });
      const port = Number(new URL(broker.url).port);
      expect(setNoDelay.mock.contexts.some((socket) => (socket as net.Socket).remotePort === port)).toBe(
        true,
      );
      for (const format of formats)
        await publisher.publish(deviceTelemetryMessagesByFormat[format], sample, { qos: 1 });
      await publisher.close();
      expect(broker.connects[0]).toMatchObject({ username: streamId, password: Buffer.from('sk_test') });
      expect(broker.publishes.map((message) => message.topic)).toEqual(
        formats.map(() => deviceTelemetryAddress({ streamId })),
      );
      broker.publishes.forEach((message, index) => {
        const format = formats[index] as Format;
        expect(message.contentType).toBe(
          deviceTelemetryContentTypes[deviceTelemetryMessagesByFormat[format]],
        );
        expect(deviceTelemetryDecodersByFormat[format](new Uint8Array(message.payload))).toStrictEqual(
          sample,
        );
      });
    } finally {
      setNoDelay.mockRestore();
      await broker.close();
    }
  });
});

describe('generated/messages: WebSocket subscriber', () => {
  let server: http.Server;
  let clients: WebSocket[];
  let requests: string[];
  beforeAll(async () => {
    clients = [];
    requests = [];
    server = http.createServer();
    const hub = new WebSocketServer({ server });
    hub.on('connection', (client, request) => {
      clients.push(client);
      requests.push(request.url ?? '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('connects to the stream path with the token and delivers each LiveFrame', async () => {
    const { port } = server.address() as net.AddressInfo;
    const frames: LiveFrame[] = [];
    const subscription = await subscribeLiveFeed({
      url: `ws://127.0.0.1:${port}`,
      parameters: { streamId: 'stm_8fJ2kQ9xLmN3pR7t' },
      query: { token: 'sbt_0123456789abcdefgh' },
      onMessage: (frame) => frames.push(frame),
    });
    expect(requests).toEqual(['/devices/stm_8fJ2kQ9xLmN3pR7t/live?token=sbt_0123456789abcdefgh']);
    clients[0]?.send(JSON.stringify(liveFrame));
    clients[0]?.send(JSON.stringify([...liveFrame, ...liveFrame]));
    await vi.waitFor(() => expect(frames).toHaveLength(2));
    expect(frames).toEqual([liveFrame, [...liveFrame, ...liveFrame]]);
    await subscription.close();
  });
});
