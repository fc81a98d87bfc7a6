// Issue 12, item 6: no-store on secrets, nosniff everywhere, an unframeable consent page, CORS only for the
// operations a publishable key may call.
import { describe, expect, it } from 'vitest';
import { authCaller, restCaller } from '../testing/account-resources.js';
import { useServiceFixture } from '../testing/service-fixture.js';
import { buildApps } from './build-apps.js';
import { publishableOperations } from './response-headers.js';

const fixture = useServiceFixture();
const origin = 'https://dashboard.example.com';

describe('security headers (issue 12, item 6)', () => {
  it('marks answers that carry secrets no-store and every answer nosniff', async () => {
    const service = fixture();
    const call = restCaller(service);
    const token = (await service.createAccount()).keys.secret.key;
    const stream = await call('createStream', { token, body: { title: 'Pump' } });
    const webhook = await call('createWebhook', {
      token,
      body: { url: 'https://hooks.example.com/t', events: ['report.generated'] },
    });
    const streamId = (stream.body as { id: string }).id;
    const subscriber = await call('createSubscriberToken', { token, params: { streamId }, body: {} });
    const refused = await call('getAccount', {});
    for (const reply of [stream, webhook, subscriber]) {
      expect(reply.status).toBe(201);
      expect(reply.headers['cache-control']).toBe('no-store');
    }
    for (const reply of [stream, webhook, subscriber, refused])
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sets them also on answers no hook sees: a path the router refuses, a path outside the base path', async () => {
    const { api } = fixture().apps;
    // An undecodable percent-encoding never reaches a route or an onRequest hook (Fastify's frameworkErrors).
    for (const url of ['/v2/streams/%E0%A4%A', '/outside-the-base-path']) {
      const reply = await api.inject({ method: 'GET', url });
      expect(reply.statusCode).toBe(404);
      expect(reply.json().error.code).toBe('route_not_found');
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.headers['cache-control']).toBe('no-store');
    }
  });

  it('forbids framing the consent page', async () => {
    const service = fixture();
    const page = await authCaller(service)('oauthAuthorize', { query: { client_id: 'unknown' } });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('answers CORS for publishable-key operations only, from allowed origins', async () => {
    const service = fixture();
    const apps = await buildApps(service.dependencies, { corsOrigins: [origin] });
    try {
      const call = restCaller(service, apps.api);
      const account = await service.createAccount();
      const withOrigin = (value: string) => ({ origin: value });
      const read = await call('listStreams', {
        token: account.keys.publishable.key,
        headers: withOrigin(origin),
      });
      expect(read.headers['access-control-allow-origin']).toBe(origin);
      expect(String(read.headers['access-control-expose-headers'])).toContain('Request-Id');
      const other = await call('listStreams', {
        token: account.keys.publishable.key,
        headers: withOrigin('https://evil.example'),
      });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      // A refused credential's answer is readable by the page too (the CORS fields come before authentication).
      const refused = await call('listStreams', {
        token: 'tlm_pk_00000000000000000000000000000000',
        headers: withOrigin(origin),
      });
      expect(refused.status).toBe(401);
      expect(refused.headers['access-control-allow-origin']).toBe(origin);
      // A secret-key operation never gets CORS, even from an allowed origin.
      const write = await call('createStream', {
        token: account.keys.secret.key,
        headers: withOrigin(origin),
        body: { title: 'Pump' },
      });
      expect(write.status).toBe(201);
      expect(write.headers['access-control-allow-origin']).toBeUndefined();
      // Publishable keys create subscriber tokens for browsers: that POST has CORS and a preflight.
      const streamId = (write.body as { id: string }).id;
      const preflight = await apps.api.inject({
        method: 'OPTIONS',
        url: `/v2/streams/${streamId}/subscriber_tokens`,
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers['access-control-allow-methods']).toBe('POST');
      expect(String(preflight.headers['access-control-allow-headers'])).toContain('Authorization');
      const token = await call('createSubscriberToken', {
        token: account.keys.publishable.key,
        params: { streamId },
        headers: withOrigin(origin),
        body: {},
      });
      expect(token.status).toBe(201);
      expect(token.headers['access-control-allow-origin']).toBe(origin);
    } finally {
      await Promise.all([apps.api.close(), apps.auth.close()]);
    }
  });

  it('counts the subscriber-token operation among the publishable ones', () => {
    expect(publishableOperations().map((route) => route.operationId)).toContain('createSubscriberToken');
    expect(publishableOperations().map((route) => route.operationId)).not.toContain('createStream');
  });
});
