import { createHash } from 'node:crypto';
import { randomBase62 } from '../../runtime/random-base62.js';
import { type CreatedClient, createOAuthClient } from '../seed.js';
import { authCaller, type Call } from './account-resources.js';
import type { Reply } from './call-operation.js';
import type { ServiceFixture } from './service-fixture.js';

/** Redirect URIs the test client registers; the second one shows that a code is bound to the first. */
export const redirectUris = ['https://app.example.com/callback', 'http://127.0.0.1:8788/callback'];

/** An RFC 7636 verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBase62(64);
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** The Location of a redirect as a URL, or null when the reply has none. */
export function locationOf(reply: Reply): URL | null {
  const location = reply.headers.location;
  return typeof location === 'string' ? new URL(location) : null;
}

/** One client and one authorization request of it: everything a test of the code flow needs. */
export interface OAuthSetup {
  call: Call;
  client: CreatedClient;
  accountId: string;
  secretKey: string;
  pkce: { verifier: string; challenge: string };
  /** The query of GET /oauth/authorize (also the hidden fields of the consent form). */
  request: Record<string, string>;
}

export async function oauthSetup(fixture: ServiceFixture, scope: string): Promise<OAuthSetup> {
  const account = await fixture.createAccount();
  const client = await createOAuthClient(
    fixture.store,
    fixture.clock,
    account.accountId,
    'Dashboard',
    redirectUris,
  );
  const pkce = pkcePair();
  const request = {
    client_id: client.clientId,
    redirect_uri: redirectUris[0] ?? '',
    response_type: 'code',
    scope,
    state: randomBase62(12),
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
  };
  return {
    call: authCaller(fixture),
    client,
    accountId: account.accountId,
    secretKey: account.keys.secret.key,
    pkce,
    request,
  };
}

/** Posts the consent form with the account's secret key and a decision. */
export function consent(
  setup: OAuthSetup,
  decision: 'approve' | 'deny',
  overrides: Record<string, string> = {},
) {
  const fields = { ...setup.request, decision, api_key: setup.secretKey, ...overrides };
  return setup.call('oauthConsent', { body: formBody(fields) });
}

/** Approves the request and returns the code of the redirect. */
export async function approvedCode(setup: OAuthSetup): Promise<string> {
  const reply = await consent(setup, 'approve');
  const code = locationOf(reply)?.searchParams.get('code');
  if (reply.status !== 302 || code === null || code === undefined) {
    throw new Error(`consent gave no code: ${reply.status} ${String(reply.headers.location)} ${reply.text}`);
  }
  return code;
}

/** The token endpoint with the client's credentials; `fields` add to or replace them. */
export function tokenRequest(setup: OAuthSetup, fields: Record<string, string>) {
  const form = { client_id: setup.client.clientId, client_secret: setup.client.clientSecret, ...fields };
  return setup.call('oauthToken', { body: formBody(form) });
}

/** Exchanges a code with the request's redirect URI and PKCE verifier. */
export function exchange(setup: OAuthSetup, code: string, overrides: Record<string, string> = {}) {
  return tokenRequest(setup, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: setup.request.redirect_uri ?? '',
    code_verifier: setup.pkce.verifier,
    ...overrides,
  });
}
