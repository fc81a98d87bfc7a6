import { describe, expect, it } from 'vitest';
import { OAuthClient } from './oauth.js';
import { OAuthError } from './oauth-error.js';
import { codeChallengeS256, createCodeVerifier } from './pkce.js';

const options = {
  authorizationUrl: 'https://auth.example.test/oauth/authorize',
  tokenUrl: 'https://auth.example.test/oauth/token',
  clientId: 'cl_1',
  clientSecret: 'cs_1',
  redirectUri: 'https://app.example.test/callback',
  now: () => 1_000_000,
};

function answering(status: number, body: unknown, seen: URLSearchParams[] = []): typeof fetch {
  return async (_url, init) => {
    seen.push(new URLSearchParams(String(init?.body)));
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
}

describe('PKCE and the OAuth helper', () => {
  it('derives the RFC 7636 appendix B challenge', () => {
    expect(codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes 43-character base64url verifiers', () => {
    expect(createCodeVerifier()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('builds the authorize URL with state and the S256 challenge of the verifier it returns', () => {
    const { url, state, codeVerifier } = new OAuthClient(options).authorizeUrl({
      scopes: ['a:read', 'b:write'],
    });
    const query = new URL(url).searchParams;
    expect(url.startsWith(`${options.authorizationUrl}?`)).toBe(true);
    expect(Object.fromEntries(query)).toEqual({
      response_type: 'code',
      client_id: 'cl_1',
      redirect_uri: options.redirectUri,
      scope: 'a:read b:write',
      state,
      code_challenge: codeChallengeS256(codeVerifier),
      code_challenge_method: 'S256',
    });
  });

  it('exchanges a code with the verifier as a form post, and keeps the expiry as a moment', async () => {
    const seen: URLSearchParams[] = [];
    const tokens = { access_token: 'at', token_type: 'Bearer', expires_in: 60, refresh_token: 'rt' };
    const client = new OAuthClient({ ...options, fetch: answering(200, tokens, seen) });
    const answer = await client.exchangeCode('ac_1', 'verifier');
    expect(Object.fromEntries(seen[0] ?? [])).toEqual({
      grant_type: 'authorization_code',
      code: 'ac_1',
      redirect_uri: options.redirectUri,
      code_verifier: 'verifier',
      client_id: 'cl_1',
      client_secret: 'cs_1',
    });
    expect(client.tokenSet(answer)).toEqual({ accessToken: 'at', refreshToken: 'rt', expiresAt: 1_060_000 });
  });

  it('raises RFC 6749 error bodies as OAuthError', async () => {
    const body = { error: 'invalid_grant', error_description: 'The code was already used.' };
    const client = new OAuthClient({ ...options, fetch: answering(400, body) });
    const failure = await client.refresh('rt_old').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OAuthError);
    expect(failure).toMatchObject({
      status: 400,
      error: 'invalid_grant',
      errorDescription: body.error_description,
    });
  });
});
