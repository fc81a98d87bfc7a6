import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { parse } from 'yaml';
import type { DeviceOnlineEventPayload } from '../generated/types/webhooks.js';
import {
  expressWebhookMiddleware,
  fastifyWebhookPlugin,
  nodeWebhookReader,
  signWebhook,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventName,
  WebhookVerificationError,
  webhookEventHeader,
  webhookEventNames,
  webhookSignatureHeader,
  webhookToleranceSeconds,
} from '../generated/webhooks/index.js';
import type { ExpressLikeRequest } from '../runtime/webhook-middleware-express.js';

const secret = 'whsec_generated_module_test';
// Plain data: the generated payload type intersects data.object with Record<string, never> (the base Event's untyped
// object), which no literal satisfies; the typed checks are on what verifyWebhook returns.
const event = {
  id: 'evt_7Yp2Qm5Wx8Kd3Lr9',
  object: 'event',
  type: 'device.online',
  created: 1795253472,
  livemode: true,
  data: {
    object: {
      id: 'stm_8fJ2kQ9xLmN3pR7t',
      title: 'Pump 7 vibration',
      status: 'live',
      subscriberCount: 0,
      startedAt: '2026-11-21T09:31:12.250Z',
    },
  },
};
const rawBody = JSON.stringify(event);
const tamperedBody = rawBody.replace('Pump 7', 'Pump 8');

function deliveryHeaders(body = rawBody, eventName: string = event.type): Record<string, string> {
  return {
    'content-type': 'application/json',
    [webhookSignatureHeader.toLowerCase()]: signWebhook(body, secret),
    [webhookEventHeader.toLowerCase()]: eventName,
  };
}

function reasonOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return 'verified';
}

describe('generated webhooks: spec facts', () => {
  const spec = parse(readFileSync(path.join(import.meta.dirname, '../spec/openapi.yaml'), 'utf8'));

  it('takes the header names, tolerance and events from the spec', () => {
    const signature = spec['x-webhook-delivery'].signature;
    expect([webhookSignatureHeader, webhookEventHeader, webhookToleranceSeconds]).toEqual([
      signature.header,
      signature.eventHeader,
      signature.toleranceSeconds,
    ]);
    expect([...webhookEventNames]).toEqual(Object.keys(spec.webhooks).sort());
  });
});

describe('generated webhooks: verifyWebhook', () => {
  it('returns the event, narrowed by its type', () => {
    const verified = verifyWebhook(rawBody, deliveryHeaders(), [secret]);
    expect(verified).toEqual(event);
    expectTypeOf<WebhookEvent['type']>().toEqualTypeOf<WebhookEventName>();
    if (verified.type !== 'device.online') throw new Error(`unexpected ${verified.type}`);
    expectTypeOf(verified.type).toEqualTypeOf<'device.online'>();
    verified satisfies DeviceOnlineEventPayload;
  });

  it.each<[string, () => unknown, string]>([
    ['a tampered body', () => verifyWebhook(tamperedBody, deliveryHeaders(), [secret]), 'signature-mismatch'],
    [
      'another secret',
      () => verifyWebhook(rawBody, deliveryHeaders(), ['whsec_other']),
      'signature-mismatch',
    ],
    [
      'an event header that is not the body type',
      () => verifyWebhook(rawBody, deliveryHeaders(rawBody, 'device.offline'), [secret]),
      'event-type-mismatch',
    ],
    [
      'a payload that breaks its schema',
      () => verifyWebhook('{"type":"device.online"}', deliveryHeaders('{"type":"device.online"}'), [secret]),
      'invalid-payload',
    ],
    [
      'a delivery 301 s old',
      () => verifyWebhook(rawBody, deliveryHeaders(), [secret], { nowSeconds: Date.now() / 1000 + 301 }),
      'timestamp-outside-tolerance',
    ],
  ])('refuses %s', (_name, action, reason) => {
    expect(reasonOf(action)).toBe(reason);
  });

  it('refuses a tolerance of 0 when a receiver is set up, before any delivery', () => {
    const options = { secrets: [secret], toleranceSeconds: 0 };
    expect(() => fastifyWebhookPlugin(options)).toThrow(RangeError);
    expect(() => expressWebhookMiddleware(options)).toThrow(RangeError);
    expect(() => nodeWebhookReader(options)).toThrow(RangeError);
    expect(() => verifyWebhook(rawBody, deliveryHeaders(), [secret], { toleranceSeconds: 0 })).toThrow(
      RangeError,
    );
  });
});

describe('generated webhooks: Fastify plugin', () => {
  const app = Fastify();
  app.register(async (scope) => {
    await scope.register(fastifyWebhookPlugin({ secrets: [secret] }));
    scope.post<{ Body: WebhookEvent }>('/webhooks', async (request) => {
      const received = request.body;
      return { type: received.type, id: received.id };
    });
  });
  app.post('/other', async (request) => ({ echoed: request.body }));
  afterAll(() => app.close());

  it('verifies a delivery and hands the event to the route', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/webhooks',
      payload: rawBody,
      headers: deliveryHeaders(),
    });
    expect([response.statusCode, response.json()]).toEqual([200, { type: event.type, id: event.id }]);
  });

  it('answers 400 with the reason for a tampered body', async () => {
    const headers = deliveryHeaders();
    const response = await app.inject({ method: 'POST', url: '/webhooks', payload: tamperedBody, headers });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^signature-mismatch/);
  });

  it('leaves the JSON parser of other scopes alone', async () => {
    const response = await app.inject({ method: 'POST', url: '/other', payload: { plain: true } });
    expect(response.json()).toEqual({ echoed: { plain: true } });
  });
});

describe('generated webhooks: node:http reader', () => {
  const { readAndVerify } = nodeWebhookReader({ secrets: [secret], maxBodyBytes: 4096 });
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((request, response) => {
      readAndVerify(request).then(
        (received) => response.writeHead(200).end(received.type),
        (error: unknown) => {
          const failure = error instanceof WebhookVerificationError ? error : null;
          response.writeHead(failure?.statusCode ?? 500).end(failure?.reason ?? 'bug');
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it.each<[string, string, Record<string, string>, number, string]>([
    ['a signed delivery', rawBody, deliveryHeaders(), 200, 'device.online'],
    ['a tampered body', tamperedBody, deliveryHeaders(), 400, 'signature-mismatch'],
    ['a body over the limit', 'x'.repeat(5000), deliveryHeaders(), 413, 'body-too-large'],
  ])('answers %s', async (_name, body, headers, status, text) => {
    const response = await fetch(url, { method: 'POST', body, headers });
    expect([response.status, await response.text()]).toEqual([status, text]);
  });
});

describe('generated webhooks: Express middleware', () => {
  const middleware = expressWebhookMiddleware({ secrets: [secret] });
  const run = (request: ExpressLikeRequest) =>
    new Promise<unknown>((resolve) => middleware(request, {}, (error) => resolve(error)));
  const streamed = (body: string, headers = deliveryHeaders()): ExpressLikeRequest =>
    Object.assign(Readable.from([Buffer.from(body)]), { headers });

  it('reads the stream and replaces the body with the event', async () => {
    const request = streamed(rawBody);
    expect(await run(request)).toBeUndefined();
    expect(request.body).toEqual(event);
  });

  it('uses the bytes a body parser kept', async () => {
    const request = Object.assign(streamed(''), { rawBody: Buffer.from(rawBody), body: event });
    expect(await run(request)).toBeUndefined();
    expect(request.body).toEqual(event);
  });

  it('passes a verification failure to next', async () => {
    const error = await run(streamed(tamperedBody));
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).reason).toBe('signature-mismatch');
  });

  it('says so when the body was parsed before it and the bytes are gone', async () => {
    const request = Object.assign(streamed(rawBody), { body: event });
    await once(request.resume(), 'end');
    const error = await run(request);
    expect(error).not.toBeInstanceOf(WebhookVerificationError);
    expect(String(error)).toMatch(/mount it before express.json\(\)/);
  });
});
