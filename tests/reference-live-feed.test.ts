import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribeLiveFeed } from '../generated/messages/live-feed.js';
import { closeCodes } from '../reference/fanout/live-feed-rules.js';
import { recordingSubscriber } from '../reference/fanout/testing/recording-subscriber.js';
import { type RunningService, start } from '../reference/index.js';
import { WsHandshakeError } from '../runtime/ws-subscriber.js';

const scratchRoot = path.resolve(import.meta.dirname, '../.tmp');
let directory: string;
let service: RunningService;
let secretKey: string;
let publishableKey: string;

async function rest(method: string, pathname: string, key: string, body?: unknown) {
  const response = await fetch(`${service.urls.baseUrl}${pathname}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function newStreamAndToken(recordingReportId?: string) {
  const stream = await rest('POST', '/streams', secretKey, {
    title: 'Live',
    ...(recordingReportId ? { recordingReportId } : {}),
  });
  expect(stream.status).toBe(201);
  const streamId = String(stream.body.id);
  // A publishable key may create subscriber tokens: that is how a browser subscribes.
  const token = await rest('POST', `/streams/${streamId}/subscriber_tokens`, publishableKey, {
    expiresIn: 60,
  });
  expect(token.status).toBe(201);
  expect(token.body.wsUrl).toBe(stream.body.wsUrl);
  return { streamId, token: String(token.body.token) };
}

beforeAll(async () => {
  await mkdir(scratchRoot, { recursive: true });
  directory = await mkdtemp(path.join(scratchRoot, 'live-feed-'));
  // Sixty times faster: a 60 s subscriber token runs out in one second.
  service = await start({ dataDir: directory, timeScale: 60 });
  const paid = service.seeded?.accounts.paid;
  secretKey = paid?.keys.secret.key ?? '';
  publishableKey = paid?.keys.publishable.key ?? '';
});
afterAll(async () => {
  await service?.stop();
  await rm(directory, { recursive: true, force: true });
});

describe('the live feed of the reference service', () => {
  it('serves the stream wsUrl on the API listener: token from REST, messages from the bus, a live subscriberCount', async () => {
    const { streamId, token } = await newStreamAndToken();
    const subscriber = await recordingSubscriber(service.urls.wsUrl, streamId, token);
    await expect
      .poll(async () => (await rest('GET', `/streams/${streamId}`, secretKey)).body.subscriberCount)
      .toBe(1);
    for (let index = 0; index < 100; index++)
      service.bus.publish({
        type: 'telemetry',
        streamId,
        receivedAt: Date.now(),
        sample: { ts: index, values: { v: index } },
      });
    await subscriber.until(
      (messages) => messages.filter((message) => message.type === 'telemetry').length === 100,
    );
    // The 60 s token runs out on the service clock, sixty times faster here.
    expect((await subscriber.closed).code).toBe(closeCodes.tokenExpired);
    await expect
      .poll(async () => (await rest('GET', `/streams/${streamId}`, secretKey)).body.subscriberCount)
      .toBe(0);
  });

  it('closes the subscribers of a stream deleted through the REST API with 1000', async () => {
    const { streamId, token } = await newStreamAndToken();
    const subscriber = await recordingSubscriber(service.urls.wsUrl, streamId, token);
    await subscriber.until((messages) => messages.length > 0);
    expect((await rest('DELETE', `/streams/${streamId}`, secretKey)).status).toBe(200);
    expect((await subscriber.closed).code).toBe(closeCodes.streamDeleted);
  });

  it('answers an upgrade outside the live feed with route_not_found, and REST keeps working', async () => {
    const refusal = await subscribeLiveFeed({
      url: `${service.urls.wsUrl}/v2`,
      parameters: { streamId: 'stm_x' },
      query: { token: 'sbt_x' },
      onMessage: () => {},
    }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(WsHandshakeError);
    expect(JSON.parse((refusal as WsHandshakeError).body).error.code).toBe('route_not_found');
    expect((await rest('GET', '/streams', secretKey)).status).toBe(200);
  });

  it('records a recorded stream into its report and closes subscribers with 1001 when stopping', async () => {
    const report = await rest('POST', '/reports', secretKey, { title: 'Recorded' });
    const { streamId, token } = await newStreamAndToken(String(report.body.id));
    const subscriber = await recordingSubscriber(service.urls.wsUrl, streamId, token);
    for (let index = 0; index < 50; index++)
      service.bus.publish({
        type: 'telemetry',
        streamId,
        receivedAt: Date.now(),
        sample: { ts: index, values: { v: index } },
      });
    await service.stop();
    expect((await subscriber.closed).code).toBe(closeCodes.serviceStopping);
    // Stopping wrote the buffered samples: a restart finds them.
    service = await start({ dataDir: directory, timeScale: 60 });
    const records = await rest('GET', `/reports/${String(report.body.id)}/records`, secretKey);
    const data = records.body.data as Array<{ samples: unknown[]; source: string; streamId: string }>;
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ source: 'stream', streamId });
    expect(data[0]?.samples).toHaveLength(50);
  });
});
