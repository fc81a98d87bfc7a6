import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Handlers, telemetryServer } from '../generated/server/index.js';
import { errorCodes, errorRoles } from '../generated/types/errors.js';
import { apiPolicies } from '../generated/types/facts.js';
import type { CreatedStream, Stream, TokenResponse } from '../generated/types/schemas.js';
import { ApiProblem } from '../runtime/error-envelope.js';
import type { AuthenticateContext, OperationInput, RenderError } from '../runtime/fastify-routes.js';

// The real generated server with fake handlers: what reaches them, and what the client gets back.
interface Caller {
  accountId: string;
}

const stream: Stream = {
  id: 'stm_8fJ2kQ9xLmN3pR7t',
  object: 'stream',
  title: 'Pump 7 vibration',
  status: 'idle',
  quality: 'high',
  format: 'json',
  region: 'eu-west-1',
  mqttTopic: 'mqtts://mqtt.telemetry.example/devices/stm_8fJ2kQ9xLmN3pR7t',
  wsUrl: 'wss://ws.telemetry.example/devices/stm_8fJ2kQ9xLmN3pR7t/live',
  subscriberCount: 0,
  createdAt: '2026-11-21T09:30:00.000Z',
  metadata: {},
  startedAt: null,
  recordingReportId: null,
};
const streamKey = 'stk_Vq8Lm2Xr7Tb4Nw9Kc3Pz6Hd1Fy5Js0Ga';
const tokens: TokenResponse = {
  access_token: 'aaa.bbb.ccc',
  token_type: 'Bearer',
  expires_in: 3600,
  refresh_token: 'rt_Kx8Mv3Qn7Tb2Lw6Rc9Pz',
  scope: 'streams:read',
};

function problem(code: keyof typeof errorCodes, message: string, param?: string): ApiProblem {
  return new ApiProblem(code, errorCodes[code], message, param);
}

const seen = { authentications: [] as AuthenticateContext[], inputs: [] as Partial<OperationInput>[] };
const notUsed = async (): Promise<never> => {
  throw new Error('not used by these tests');
};

const handlers: Handlers<Caller> = {
  createStream: async (request) => {
    seen.inputs.push(request);
    // Fields the 201 schema does not list must not reach the client.
    const body: CreatedStream = Object.assign({ internalNote: 'dropped' }, stream, {
      title: request.body.title,
      streamKey,
    });
    return { status: 201, body };
  },
  getStream: async (request) => {
    if (request.params.streamId === 'stm_missing') {
      throw problem(errorRoles.resourceMissing, 'No such stream.', 'streamId');
    }
    return { status: 200, body: Object.assign({ streamKey }, stream) };
  },
  listStreams: async (request) => {
    seen.inputs.push(request);
    return { status: 200, body: { object: 'list', data: [stream], hasMore: false, nextCursor: null } };
  },
  getAccount: async () => {
    throw new Error('database on fire at /srv/db');
  },
  getReportFeed: async () => ({ status: 200, body: '<?xml version="1.0"?><rss version="2.0"></rss>' }),
  oauthConsent: notUsed,
  oauthAuthorize: async (request) => ({
    status: 302,
    headers: { Location: `https://app.example.com/callback?code=c1&state=${request.query.state}` },
  }),
  oauthToken: async (request) => {
    seen.inputs.push(request);
    return { status: 200, body: tokens, headers: { 'Cache-Control': 'no-store' } };
  },
  createRecord: notUsed,
  createReport: notUsed,
  createSubscriberToken: notUsed,
  createWebhook: notUsed,
  deleteRecord: notUsed,
  deleteReport: notUsed,
  deleteStream: notUsed,
  deleteWebhook: notUsed,
  getRecord: notUsed,
  getReport: notUsed,
  getWebhook: notUsed,
  listRecords: notUsed,
  listReports: notUsed,
  listWebhookDeliveries: notUsed,
  retryWebhookDelivery: notUsed,
  rollWebhookSecret: notUsed,
  listWebhooks: notUsed,
  publishRecord: notUsed,
  testWebhook: notUsed,
  updateRecord: notUsed,
  updateReport: notUsed,
  updateStream: notUsed,
};

async function authenticate(context: AuthenticateContext): Promise<Caller> {
  seen.authentications.push(context);
  if (context.request.headers.authorization === undefined) {
    context.reply.header('WWW-Authenticate', 'Bearer');
    throw problem(errorRoles.missingCredentials, 'No Authorization header.');
  }
  return { accountId: 'acct_1' };
}

// The token endpoint answers RFC 6749 bodies (x-error-format), which only the implementation knows how to word.
const renderError: RenderError = ({ operationId, problem }) =>
  operationId === 'oauthToken'
    ? { status: 400, body: { error: 'invalid_request', error_description: problem.message } }
    : null;

let app: FastifyInstance;
const auth = { authorization: 'Bearer tlm_sk_test' };

beforeAll(async () => {
  app = Fastify({ logger: false });
  await app.register(telemetryServer<Caller>, { handlers, authenticate, renderError });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

function postStream(payload: string, contentType = 'application/json') {
  return app.inject({
    method: 'POST',
    url: '/streams',
    headers: { ...auth, 'content-type': contentType },
    payload,
  });
}

function expectError(
  response: Awaited<ReturnType<typeof postStream>>,
  code: keyof typeof errorCodes,
  param?: string,
) {
  const body: unknown = response.json();
  expect({ status: response.statusCode, body }).toEqual({
    status: errorCodes[code].status,
    body: {
      error: {
        type: errorCodes[code].type,
        code,
        message: expect.any(String),
        ...(param === undefined ? {} : { param }),
        requestId: response.headers['request-id'],
      },
    },
  });
}

describe('generated server: operations', () => {
  it('hands a valid POST /streams to its handler and serialises the 201 by its schema', async () => {
    const response = await postStream(JSON.stringify({ title: 'Pump 7' }));
    expect(response.statusCode).toBe(201);
    expect(seen.inputs.at(-1)).toMatchObject({ body: { title: 'Pump 7' }, auth: { accountId: 'acct_1' } });
    const body = response.json();
    expect(body).toEqual({ ...stream, title: 'Pump 7', streamKey });
    expect(body).not.toHaveProperty('internalNote');
  });

  it('drops streamKey from a 200 whose schema does not list it', async () => {
    const response = await app.inject({ method: 'GET', url: `/streams/${stream.id}`, headers: auth });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(stream);
  });

  it('coerces query values and fills in defaults before the handler sees them', async () => {
    await app.inject({ method: 'GET', url: '/streams?limit=20', headers: auth });
    expect(seen.inputs.at(-1)?.query).toEqual({ limit: 20 });
    await app.inject({ method: 'GET', url: '/streams', headers: auth });
    expect(seen.inputs.at(-1)?.query).toEqual({ limit: 20 });
    const response = await app.inject({ method: 'GET', url: '/streams?limit=7', headers: auth });
    expect([response.statusCode, seen.inputs.at(-1)?.query]).toEqual([200, { limit: 7 }]);
  });

  it('gives the auth hook the operation and its scopes, and renders its refusal', async () => {
    await postStream(JSON.stringify({ title: 'Pump 7' }));
    const context = seen.authentications.at(-1);
    expect(context?.operationId).toBe('createStream');
    expect(
      context?.security.flatMap((requirement) => requirement.schemes.flatMap((scheme) => scheme.scopes)),
    ).toEqual(['streams:write', 'streams:write']);
    const refused = await app.inject({ method: 'POST', url: '/streams', payload: { title: 'Pump 7' } });
    expectError(refused, errorRoles.missingCredentials);
    expect(refused.headers['www-authenticate']).toBe('Bearer');
    // Before the body is read: an unauthenticated caller learns nothing about its payload.
    const malformed = await app.inject({
      method: 'POST',
      url: '/streams',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expectError(malformed, errorRoles.missingCredentials);
  });

  it('skips the auth hook for operations with no security', async () => {
    const before = seen.authentications.length;
    const response = await app.inject({ method: 'GET', url: '/reports/pod_1/feed.xml' });
    expect(seen.authentications.length).toBe(before);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/rss\+xml/);
    expect(response.body).toBe('<?xml version="1.0"?><rss version="2.0"></rss>');
  });

  it('sends a 302 without a body, with its Location', async () => {
    const query =
      'client_id=cl_1&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback&response_type=code&scope=streams%3Aread&state=s1';
    const response = await app.inject({ method: 'GET', url: `/oauth/authorize?${query}` });
    expect([response.statusCode, response.headers.location, response.body]).toEqual([
      302,
      'https://app.example.com/callback?code=c1&state=s1',
      '',
    ]);
  });

  it('parses a form-encoded body where the spec declares one', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload:
        'grant_type=refresh_token&refresh_token=rt_Kx8Mv3Qn7Tb2Lw6Rc9Pz&client_id=cl_1&client_secret=s',
    });
    expect(seen.inputs.at(-1)?.body).toMatchObject({ grant_type: 'refresh_token' });
    expect([response.statusCode, response.json(), response.headers['cache-control']]).toEqual([
      200,
      tokens,
      'no-store',
    ]);
  });
});

describe('generated server: errors as the envelope', () => {
  it.each([
    ['a missing title', { quality: 'high' }, errorRoles.missingParameter, 'title'],
    ['a title of 201 characters', { title: 'x'.repeat(201) }, errorRoles.invalidParameter, 'title'],
    ['an unknown field', { title: 'Pump 7', colour: 'red' }, errorRoles.unknownParameter, 'colour'],
  ] as const)('refuses %s', async (_case, payload, code, param) => {
    expectError(await postStream(JSON.stringify(payload)), code, param);
  });

  it('refuses malformed JSON, another content type and an oversized body', async () => {
    expectError(await postStream('{"title": '), errorRoles.malformedBody);
    expectError(await postStream('title=Pump', 'text/plain'), errorRoles.unsupportedContentType);
    // One byte past the spec's x-limits.maxRequestBodyBytes.
    const padding = apiPolicies.limits.maxRequestBodyBytes + 1 - JSON.stringify({ title: '' }).length;
    expectError(await postStream(JSON.stringify({ title: 'x'.repeat(padding) })), errorRoles.bodyTooLarge);
  });

  it('lets the implementation render errors of an operation whose errors are not the envelope', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'client_id=cl_1',
    });
    expect([response.statusCode, response.json()]).toEqual([
      400,
      { error: 'invalid_request', error_description: expect.stringContaining('grant_type') },
    ]);
  });

  it('refuses a query parameter the operation does not define', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/streams/${stream.id}?expand=all`,
      headers: auth,
    });
    expectError(response, errorRoles.unknownParameter, 'expand');
  });

  it('answers route-not-found for an unknown path and method-not-allowed with Allow for a known one', async () => {
    expectError(await app.inject({ method: 'GET', url: '/nowhere' }), errorRoles.routeNotFound);
    const wrongMethod = await app.inject({ method: 'DELETE', url: '/account', headers: auth });
    expectError(wrongMethod, errorRoles.methodNotAllowed);
    expect(wrongMethod.headers.allow).toBe('GET');
    const item = await app.inject({ method: 'PUT', url: `/streams/${stream.id}` });
    expect(item.headers.allow).toBe('DELETE, GET, PATCH');
  });

  it("renders a handler's ApiProblem as its envelope", async () => {
    const response = await app.inject({ method: 'GET', url: '/streams/stm_missing', headers: auth });
    expectError(response, errorRoles.resourceMissing, 'streamId');
  });

  it('renders any other failure as internal-error without its message or stack', async () => {
    const response = await app.inject({ method: 'GET', url: '/account', headers: auth });
    expectError(response, errorRoles.internalError);
    expect(response.body).not.toMatch(/database|\/srv|at /);
  });

  it('puts one request id, in the spec format, in the header and the error body', async () => {
    const responses = await Promise.all([
      postStream('{'),
      app.inject({ method: 'GET', url: '/nowhere' }),
      app.inject({ method: 'GET', url: '/streams', headers: auth }),
    ]);
    const ids = responses.map((response) => response.headers['request-id']);
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9]{16}$/);
    expect(new Set(ids).size).toBe(3);
    expect(responses[0]?.json().error.requestId).toBe(ids[0]);
  });
});
