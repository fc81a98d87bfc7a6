import { describe, expect, it } from 'vitest';
import type { Authenticator } from './auth.js';
import { OAuthError } from './oauth-error.js';
import { HttpTransport } from './transport.js';

type Step = Response | Error;

/** A fetch that plays the given answers in order and records what was sent. */
function scripted(steps: Step[], sent: Array<{ method: string; authorization: string | null }> = []) {
  const fetch: typeof globalThis.fetch = async (_url, init) => {
    sent.push({
      method: String(init?.method),
      authorization: new Headers(init?.headers).get('authorization'),
    });
    const step = steps.shift();
    if (step === undefined || step instanceof Error) throw step ?? new Error('no more answers');
    return step;
  };
  return fetch;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function transport(
  steps: Step[],
  auth?: Authenticator,
  sent?: Array<{ method: string; authorization: string | null }>,
) {
  const delays: number[] = [];
  const sleep = async (milliseconds: number) => {
    delays.push(milliseconds);
  };
  const client = new HttpTransport({
    baseUrl: 'https://api.example.test',
    fetch: scripted(steps, sent),
    auth,
    retry: { sleep, random: () => 0 },
  });
  return { client, delays };
}

describe('HTTP transport', () => {
  it('retries a GET after a lost connection', async () => {
    const { client, delays } = transport([new TypeError('fetch failed'), json(200, { ok: true })]);
    await expect(client.send({ method: 'GET', path: '/a', response: 'json' })).resolves.toEqual({ ok: true });
    expect(delays).toEqual([0]);
  });

  it('does not send a POST again after a lost connection', async () => {
    const { client } = transport([new TypeError('fetch failed'), json(200, {})]);
    await expect(client.send({ method: 'POST', path: '/a', response: 'json' })).rejects.toThrow(
      'fetch failed',
    );
  });

  it('stops after the attempts a call allows', async () => {
    const { client, delays } = transport([json(503, {}), json(503, {}), json(200, {})]);
    const failure = client.send({ method: 'GET', path: '/a', response: 'json' }, { maxAttempts: 2 });
    await expect(failure).rejects.toMatchObject({ status: 503 });
    expect(delays).toHaveLength(1);
  });

  it('renews the credential once after a 401, without spending a retry', async () => {
    let token = 'old';
    const auth: Authenticator = {
      authorization: async () => `Bearer ${token}`,
      renewAfterUnauthorized: async () => {
        token = 'new';
        return true;
      },
    };
    const sent: Array<{ method: string; authorization: string | null }> = [];
    const { client } = transport([json(401, {}), json(401, {})], auth, sent);
    await expect(client.send({ method: 'POST', path: '/a', response: 'json' })).rejects.toMatchObject({
      status: 401,
    });
    expect(sent.map(({ authorization }) => authorization)).toEqual(['Bearer old', 'Bearer new']);
  });

  it('raises RFC 6749 bodies as OAuthError where the operation says so', async () => {
    const { client } = transport([json(400, { error: 'invalid_grant' })]);
    const request = { method: 'POST', path: '/token', response: 'json', errorFormat: 'rfc6749' } as const;
    await expect(client.send(request)).rejects.toBeInstanceOf(OAuthError);
  });
});
