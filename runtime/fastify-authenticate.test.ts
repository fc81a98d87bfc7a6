import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiProblem } from './error-envelope.js';
import type { ServerErrorCatalogue } from './fastify-errors.js';
import type { Authenticate, OperationInput, OperationRoute } from './fastify-routes.js';
import { registerOperations } from './fastify-server.js';

// The route-level hook takes what `authenticate` returns, a value or a promise, and refuses what it throws or
// rejects with; the content-type check runs only once authentication passed.
const entry = (status: number, type: string) => ({ status, type, description: `${type} ${status}` });
const catalogue: ServerErrorCatalogue = {
  codes: {
    no_route: entry(404, 'not_found'),
    bad_method: entry(405, 'invalid'),
    bad_json: entry(400, 'invalid'),
    bad_type: entry(415, 'invalid'),
    too_big: entry(413, 'invalid'),
    failed: entry(500, 'internal'),
    denied: entry(401, 'authentication'),
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
const echo: OperationRoute = {
  operationId: 'echo',
  method: 'POST',
  url: '/echo',
  serverUrl: null,
  security: [{ schemes: [{ name: 'Key', scopes: [] }] }],
  requestBody: { contentType: 'application/json', required: false },
  responses: { '200': { contentType: 'application/json' } },
};

const denied = () => new ApiProblem('denied', entry(401, 'authentication'), 'no');

/** By the `x-mode` header: a value, a promise of one, a throw or a rejection. */
const authenticate: Authenticate<string> = ({ request }) => {
  const mode = request.headers['x-mode'];
  if (mode === 'sync') return 'caller-sync';
  if (mode === 'async') return Promise.resolve('caller-async');
  if (mode === 'throw') throw denied();
  return Promise.reject(denied());
};

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify({ logger: false });
  registerOperations(app, {
    routes: { echo },
    validators: {},
    handlers: {
      echo: async (input: never) => ({ status: 200, body: { auth: (input as OperationInput).auth } }),
    },
    authenticate,
    catalogue,
    requestId: () => 'fixed_1',
    requestIdHeader: 'X-Request-Id',
    bodyLimit: 1024,
    closedQuery: false,
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

const post = (mode: string, contentType = 'application/json') =>
  app.inject({
    method: 'POST',
    url: '/echo',
    headers: { 'x-mode': mode, 'content-type': contentType },
    payload: '{}',
  });

describe('authentication hook', () => {
  it.each([
    ['sync', 'caller-sync'],
    ['async', 'caller-async'],
  ])('hands a %s result to the handler', async (mode, caller) => {
    const response = await post(mode);
    expect([response.statusCode, response.json()]).toEqual([200, { auth: caller }]);
  });

  it.each(['throw', 'reject'])(
    'refuses when authentication fails (%s) before the content type is checked',
    async (mode) => {
      const response = await post(mode, 'text/plain');
      expect([response.statusCode, response.json().error.code]).toEqual([401, 'denied']);
    },
  );

  it.each(['sync', 'async'])('checks the content type after a %s authentication', async (mode) => {
    const response = await post(mode, 'text/plain');
    expect([response.statusCode, response.json().error.code]).toEqual([415, 'bad_type']);
  });
});
