import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  type ClientOptions,
  createClient,
  createOAuthClient,
  InvalidRequestError,
  ServiceApiError,
  type TokenSet,
} from '../generated/client/index.js';

/** What the scripted server saw of one request. */
interface Seen {
  method: string;
  url: URL;
  authorization: string | undefined;
  body: string;
}

type Answer = { status: number; headers?: Record<string, string>; body?: unknown; delayMs?: number };
type Script = (request: Seen) => Answer;

let server: Server;
let origin: string;
/**
 * The server's origin under a path of the running test's own: a request that an earlier test gave up on (timed out,
 * aborted) can still reach the server after the next test began on a loaded machine, and must not count there.
 */
let baseUrl: string;
let testNumber = 0;
let script: Script;
let seen: Seen[];
let delays: number[];

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const testPrefix = new URL(baseUrl).pathname;
  const target = request.url ?? '/';
  if (!target.startsWith(`${testPrefix}/`)) {
    response.writeHead(410).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const entry = {
    method: request.method ?? '',
    url: new URL(target.slice(testPrefix.length), origin),
    authorization: request.headers.authorization,
    body: Buffer.concat(chunks).toString('utf8'),
  };
  seen.push(entry);
  const { status, headers = {}, body, delayMs = 0 } = script(entry);
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/html' : 'application/json';
  response.writeHead(status, { 'content-type': type, ...headers }).end(text);
}

function client(options: Partial<ClientOptions> = {}) {
  // A fake sleep records each wait instead of waiting, so backoff and Retry-After are asserted without delay.
  const sleep = async (milliseconds: number) => {
    delays.push(milliseconds);
  };
  const credential = options.auth === undefined ? { apiKey: 'tlm_sk_test' } : {};
  return createClient({ baseUrl, retry: { sleep, random: () => 0.5 }, ...credential, ...options });
}

function envelope(type: string, code: string, message: string, param?: string) {
  return { error: { type, code, message, ...(param === undefined ? {} : { param }), requestId: 'req_1' } };
}

beforeAll(async () => {
  server = createServer((request, response) => void answer(request, response));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

beforeEach(() => {
  testNumber += 1;
  baseUrl = `${origin}/test-${testNumber}`;
  seen = [];
  delays = [];
});

describe('generated client against a scripted server', () => {
  it('sends the API key, encodes path parameters and reads the body', async () => {
    script = () => ({ status: 200, body: { id: 'stm_1', object: 'stream' } });
    const stream = await client().streams.retrieve('stm_1/x');
    expect(stream.id).toBe('stm_1');
    expect(seen[0]?.url.pathname).toBe('/streams/stm_1%2Fx');
    expect(seen[0]?.authorization).toBe('Bearer tlm_sk_test');
  });

  it('iterates across three pages by nextCursor without losing or repeating an item', async () => {
    const ids = ['stm_1', 'stm_2', 'stm_3', 'stm_4', 'stm_5'];
    script = ({ url }) => {
      const after = url.searchParams.get('after');
      const start = after === null ? 0 : ids.indexOf(after) + 1;
      const data = ids.slice(start, start + 2).map((id) => ({ id }));
      const hasMore = start + 2 < ids.length;
      return {
        status: 200,
        body: { object: 'list', data, hasMore, nextCursor: hasMore ? (data.at(-1)?.id ?? null) : null },
      };
    };
    const collected: string[] = [];
    for await (const stream of client().streams.listAll({ limit: 2 })) collected.push(stream.id);
    expect(collected).toEqual(ids);
    expect(seen.map(({ url }) => [url.searchParams.get('after'), url.searchParams.get('limit')])).toEqual([
      [null, '2'],
      ['stm_2', '2'],
      ['stm_4', '2'],
    ]);
  });

  it('retries a POST answered 429 after the Retry-After delay', async () => {
    script = () =>
      seen.length === 1
        ? {
            status: 429,
            headers: { 'retry-after': '2' },
            body: envelope('rate_limit_error', 'rate_limited', 'Slow.'),
          }
        : { status: 201, body: { id: 'stm_9' } };
    const created = await client().streams.create({ title: 'Pump 7' });
    expect(created.id).toBe('stm_9');
    expect(delays).toEqual([2000]);
    expect(seen.map(({ method, body }) => [method, body])).toEqual([
      ['POST', '{"title":"Pump 7"}'],
      ['POST', '{"title":"Pump 7"}'],
    ]);
  });

  it('does not retry a POST answered 500, and types the error', async () => {
    script = () => ({ status: 500, body: envelope('api_error', 'internal_error', 'Failed.') });
    const failure = await client()
      .streams.create({ title: 'Pump 7' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceApiError);
    expect(seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('retries a GET answered 503 with jittered backoff', async () => {
    script = () =>
      seen.length === 1 ? { status: 503, body: '<h1>busy</h1>' } : { status: 200, body: { id: 'acct_1' } };
    expect((await client().account.retrieve()).id).toBe('acct_1');
    expect(seen).toHaveLength(2);
    expect(delays).toEqual([250]);
  });

  it('raises the envelope of a 400 as InvalidRequestError with code, param and requestId', async () => {
    script = () => ({
      status: 400,
      body: envelope('invalid_request_error', 'param_required', 'title is required.', 'title'),
    });
    const failure = await client()
      .streams.create({ title: '' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidRequestError);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'param_required',
      param: 'title',
      requestId: 'req_1',
      message: 'title is required.',
    });
  });

  it('raises a non-envelope error body as a plain ApiError', async () => {
    script = () => ({ status: 502, body: '<h1>Bad gateway</h1>' });
    const failure = await client({ retry: { maxAttempts: 1 } })
      .account.retrieve()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 502, type: null, code: null, body: '<h1>Bad gateway</h1>' });
  });

  it('gives up when the call outlives its timeout', async () => {
    script = () => ({ status: 200, body: { id: 'acct_1' }, delayMs: 500 });
    const failure = await client({ timeoutMs: 50 })
      .account.retrieve()
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'TimeoutError' });
  });

  it('stops when the caller aborts', async () => {
    script = () => ({ status: 200, body: { id: 'acct_1' }, delayMs: 500 });
    const controller = new AbortController();
    const pending = client().account.retrieve({ signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('generated OAuth helper against a scripted token endpoint', () => {
  const tokenAnswer = (request: Seen): Answer => {
    const form = new URLSearchParams(request.body);
    if (form.get('refresh_token') !== 'rt_old') return { status: 400, body: { error: 'invalid_grant' } };
    const body = {
      access_token: 'a.b.new',
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: 'rt_new',
      scope: '',
    };
    return { status: 200, body };
  };
  const api = (request: Seen): Answer =>
    request.authorization === 'Bearer a.b.new'
      ? { status: 200, body: { id: 'acct_1' } }
      : { status: 401, body: envelope('authentication_error', 'token_expired', 'Expired.') };

  function oauthClient(tokens: TokenSet, saved: TokenSet[]) {
    script = (request) => (request.url.pathname === '/oauth/token' ? tokenAnswer(request) : api(request));
    const oauth = createOAuthClient({
      clientId: 'cl_1',
      clientSecret: 'cs_1',
      redirectUri: 'https://app.example.test/callback',
      tokenUrl: `${baseUrl}/oauth/token`,
    });
    return client({ auth: oauth.tokenAuth(tokens, { onTokens: (next) => void saved.push(next) }) });
  }

  it('refreshes an expired token once for concurrent calls, before sending them', async () => {
    const saved: TokenSet[] = [];
    const api = oauthClient(
      { accessToken: 'a.b.old', refreshToken: 'rt_old', expiresAt: Date.now() - 1000 },
      saved,
    );
    await Promise.all([api.account.retrieve(), api.account.retrieve()]);
    const paths = seen.map(({ url }) => url.pathname);
    expect(paths.filter((path) => path === '/oauth/token')).toHaveLength(1);
    expect(
      seen.filter(({ url }) => url.pathname === '/account').map(({ authorization }) => authorization),
    ).toEqual(['Bearer a.b.new', 'Bearer a.b.new']);
    expect(Object.fromEntries(new URLSearchParams(seen[0]?.body))).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: 'rt_old',
      client_id: 'cl_1',
    });
    expect(saved).toEqual([
      { accessToken: 'a.b.new', refreshToken: 'rt_new', expiresAt: expect.any(Number) },
    ]);
  });

  it('refreshes once after a 401 and sends the request again', async () => {
    const saved: TokenSet[] = [];
    const api = oauthClient({ accessToken: 'a.b.old', refreshToken: 'rt_old', expiresAt: null }, saved);
    expect((await api.account.retrieve()).id).toBe('acct_1');
    expect(seen.map(({ url, authorization }) => [url.pathname, authorization])).toEqual([
      ['/account', 'Bearer a.b.old'],
      ['/oauth/token', undefined],
      ['/account', 'Bearer a.b.new'],
    ]);
    expect(saved).toHaveLength(1);
  });
});
