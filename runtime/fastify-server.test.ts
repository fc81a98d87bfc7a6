import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseForm } from './fastify-body.js';
import type { ServerErrorCatalogue } from './fastify-errors.js';
import { methodsAllowedAt } from './fastify-not-found.js';
import type { OperationReply, OperationRoute } from './fastify-routes.js';
import { registerOperations } from './fastify-server.js';

// A hand-made table and catalogue: the runtime knows no spec, so these stand in for the generated ones.
const entry = (status: number, type: string) => ({ status, type, description: `${type} ${status}` });
const catalogue: ServerErrorCatalogue = {
  codes: {
    no_route: entry(404, 'not_found'),
    bad_method: entry(405, 'invalid'),
    bad_json: entry(400, 'invalid'),
    bad_type: entry(400, 'invalid'),
    too_big: entry(413, 'invalid'),
    failed: entry(500, 'internal'),
    invalid: entry(400, 'invalid'),
  },
  roles: {
    routeNotFound: 'no_route',
    methodNotAllowed: 'bad_method',
    malformedBody: 'bad_json',
    unsupportedContentType: 'bad_type',
    bodyTooLarge: 'too_big',
    internalError: 'failed',
  },
};
const json = (schema: object) => ({ contentType: 'application/json', schema });
const thing = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
const routes: Record<string, OperationRoute> = {
  getFeed: {
    operationId: 'getFeed',
    method: 'GET',
    url: '/feeds/:feedId.xml',
    serverUrl: null,
    security: [],
    requestBody: null,
    responses: { '200': { contentType: 'application/rss+xml' } },
  },
  getThing: {
    operationId: 'getThing',
    method: 'GET',
    url: '/things/:thingId',
    serverUrl: null,
    security: [],
    requestBody: null,
    responses: { '200': json(thing), default: json({}) },
  },
};

let app: FastifyInstance;
let thingReply: OperationReply = { status: 200, body: { id: 't1' } };

// Refuses one id with a code the catalogue does not have, as a broken validator would.
function validateThingPath(value: unknown) {
  const isUnlisted =
    typeof value === 'object' && value !== null && 'thingId' in value && value.thingId === 'unlisted';
  return isUnlisted
    ? { ok: false as const, error: { type: 'x', code: 'unlisted', message: 'm' } }
    : { ok: true as const, value };
}

beforeAll(async () => {
  app = Fastify({ logger: false });
  await app.register(
    async (instance) =>
      registerOperations(instance, {
        routes,
        validators: { getThing: { path: validateThingPath } },
        handlers: {
          getFeed: async () => ({ status: 200, body: '<rss/>' }),
          getThing: async () => thingReply,
        },
        authenticate: () => undefined,
        catalogue,
        requestId: () => 'fixed_1',
        requestIdHeader: 'X-Request-Id',
        bodyLimit: 1024,
        closedQuery: false,
      }),
    { prefix: '/v2' },
  );
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

describe('registerOperations', () => {
  it('renders 404 and 405 under the prefix it is registered with', async () => {
    const missing = await app.inject({ method: 'GET', url: '/v2/nothing' });
    expect([missing.statusCode, missing.json().error.code, missing.headers['x-request-id']]).toEqual([
      404,
      'no_route',
      'fixed_1',
    ]);
    const wrongMethod = await app.inject({ method: 'POST', url: '/v2/feeds/f1.xml' });
    expect([wrongMethod.statusCode, wrongMethod.headers.allow]).toEqual([405, 'GET']);
  });

  it('sends text bodies with their content type, unserialised', async () => {
    const response = await app.inject({ method: 'GET', url: '/v2/feeds/f1.xml' });
    expect([response.headers['content-type'], response.body]).toEqual([
      'application/rss+xml; charset=utf-8',
      '<rss/>',
    ]);
  });

  it('serialises by the response schema, dropping unlisted fields', async () => {
    thingReply = { status: 200, body: { id: 't1', secret: 's' } };
    const response = await app.inject({ method: 'GET', url: '/v2/things/t1' });
    expect([response.statusCode, response.json()]).toEqual([200, { id: 't1' }]);
  });

  it.each([
    ['a validator names a code outside the catalogue', 'unlisted', { status: 200, body: { id: 't1' } }],
    ['a reply lacks a field its schema requires', 't1', { status: 200, body: {} }],
  ])('answers 500 when %s', async (_case, thingId, reply) => {
    thingReply = reply;
    const response = await app.inject({ method: 'GET', url: `/v2/things/${thingId}` });
    expect([response.statusCode, response.json().error]).toEqual([
      500,
      { type: 'internal', code: 'failed', message: 'internal 500', requestId: 'fixed_1' },
    ]);
  });
});

describe('route matching and forms', () => {
  it('matches parameters inside a segment and literal colons', () => {
    const allowed = methodsAllowedAt('', [
      { ...routes.getFeed, url: '/feeds/:feedId.xml' } as OperationRoute,
      { ...routes.getFeed, method: 'POST', url: '/jobs/:jobId/run::now' } as OperationRoute,
    ]);
    expect([allowed('/feeds/a.b.xml'), allowed('/feeds/a.json'), allowed('/jobs/j1/run:now')]).toEqual([
      ['GET'],
      [],
      ['POST'],
    ]);
  });

  it('keeps repeated form fields and never touches prototypes', () => {
    const fields = parseForm('a=1&a=2&b=x%20y&__proto__=p');
    expect(fields).toEqual({ a: ['1', '2'], b: 'x y', ['__proto__']: 'p' });
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
  });
});
