// The interface's headline through the public entry point: samples a device publishes over MQTT at its quality's
// top rate reach every WebSocket subscriber of the stream exactly once, in order, with contiguous sequence numbers,
// and the device's connection reaches a webhook as a signed device.online delivery.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../generated/client/index.js';
import { createDeviceTelemetryPublisher } from '../generated/messages/device-telemetry.js';
import { subscribeLiveFeed } from '../generated/messages/live-feed.js';
import { qualityMembers } from '../generated/types/facts.js';
import type { LiveFrame, TelemetryMessage } from '../generated/types/schemas.js';
import { verifyWebhook, webhookEventHeader } from '../generated/webhooks/index.js';
import { type RunningService, start } from '../reference/index.js';

const quality = 'high';
const rateHz = qualityMembers[quality].sampleRateHz;
const sampleCount = 2 * rateHz;
let service: RunningService;
let dataDir: string;
let receiver: ReturnType<typeof createServer> | undefined;

interface Received {
  body: Buffer;
  headers: IncomingHttpHeaders;
}

/** A webhook receiver on a free loopback port that keeps every request's exact bytes and answers 204. */
async function startReceiver(): Promise<{ url: string; requests: Received[] }> {
  const requests: Received[] = [];
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ body: Buffer.concat(chunks), headers: request.headers });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, requests };
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'dataplane-'));
  service = await start({ dataDir, allowPrivateWebhookTargets: true });
});

afterAll(async () => {
  await service?.stop();
  receiver?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Publishes `count` samples paced to `rateHz` on the wall clock (catching up after a late timer, never skipping). */
async function publishPaced(publish: (index: number) => Promise<void>, count: number): Promise<void> {
  const startedAt = performance.now();
  for (let index = 0; index < count; index += 1) {
    const due = startedAt + (index * 1000) / rateHz;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    await publish(index);
  }
}

describe('MQTT ingest to WebSocket fan-out', () => {
  it(`delivers ${sampleCount} samples at ${rateHz} Hz to two subscribers in order, once each`, async () => {
    const paidKey = service.seeded?.accounts.paid.keys.secret.key ?? '';
    const client = createClient({ baseUrl: service.urls.baseUrl, apiKey: paidKey });
    const stream = await client.streams.create({ title: 'End to end', quality, format: 'json' });
    const received: TelemetryMessage[][] = [[], []];
    // Every message each subscriber got: status messages (subscriber counts, coalesced) share the numbering.
    const sequences: number[][] = [[], []];
    const subscriptions = await Promise.all(
      received.map(async (messages, subscriber) => {
        const { token } = await client.subscriberTokens.create(stream.id);
        return subscribeLiveFeed({
          url: service.urls.wsUrl,
          parameters: { streamId: stream.id },
          query: { token },
          onMessage: (frame: LiveFrame) => {
            for (const message of frame) {
              sequences[subscriber]?.push(message.seq);
              if (message.type === 'telemetry') messages.push(message);
            }
          },
        });
      }),
    );
    const device = await createDeviceTelemetryPublisher({
      url: service.urls.mqttBroker,
      parameters: { streamId: stream.id },
      username: stream.id,
      password: stream.streamKey,
    });
    expect((await client.streams.retrieve(stream.id)).status).toBe('live');
    await publishPaced(
      (index) => device.publish('telemetryJson', { ts: Date.now(), values: { index } }, { qos: 1 }),
      sampleCount,
    );
    await expect
      .poll(() => Math.min(...received.map((messages) => messages.length)), { timeout: 30_000 })
      .toBe(sampleCount);
    await device.close();
    for (const messages of received)
      expect(messages.map((message) => message.sample.values.index)).toEqual(
        Array.from({ length: sampleCount }, (_, index) => index),
      );
    for (const sequence of sequences)
      expect(sequence.every((seq, index) => index === 0 || seq === (sequence[index - 1] ?? 0) + 1)).toBe(
        true,
      );
    await Promise.all(subscriptions.map((subscription) => subscription.close()));
    await expect.poll(async () => (await client.streams.retrieve(stream.id)).status).toBe('idle');
  });

  it('sends device.online to a subscribed webhook, signed over the exact bytes sent', async () => {
    const paidKey = service.seeded?.accounts.paid.keys.secret.key ?? '';
    const client = createClient({ baseUrl: service.urls.baseUrl, apiKey: paidKey });
    const { url, requests } = await startReceiver();
    const webhook = await client.webhooks.create({ url, events: ['device.online'] });
    const stream = await client.streams.create({ title: 'Webhook end to end' });
    const device = await createDeviceTelemetryPublisher({
      url: service.urls.mqttBroker,
      parameters: { streamId: stream.id },
      username: stream.id,
      password: stream.streamKey,
    });
    await expect.poll(() => requests.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await device.close();
    const [delivery] = requests;
    const event = verifyWebhook(delivery?.body ?? Buffer.alloc(0), delivery?.headers ?? {}, [
      webhook.signingSecret,
    ]);
    expect(event.type).toBe('device.online');
    expect(delivery?.headers[webhookEventHeader.toLowerCase()]).toBe('device.online');
    expect(event.data).toMatchObject({ object: { id: stream.id, status: 'live' } });
  });
});
