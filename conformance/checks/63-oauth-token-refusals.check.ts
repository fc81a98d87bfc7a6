// Token requests the token endpoint must refuse that check 61 does not send (issue 13, found by the mutation score
// of reference/auth/oauth-grants.ts): a client_id no client has, a refresh token never issued, and a code_verifier
// for a code whose authorization request had no code_challenge (a PKCE downgrade); and a repeated parameter. A few
// uncredentialed requests: each counts against the suite's address budget.
import { describe } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { check, expectThat } from '../harness/check.js';
import { send } from '../harness/probe.js';
import {
  authorize,
  expectOAuthError,
  type OAuthMeans,
  oauthMeans,
  obtainTokens,
  pkcePair,
  redirectOf,
  refreshTokens,
  tokenRequest,
  tokenRequestPairs,
} from './support/auth-oauth.js';
import { oauthScheme, scopesOf } from './support/auth-operations.js';

const accountScope = (scopesOf(routes.getAccount, oauthScheme) ?? []).join(' ');

/** A code from the documented flow, without PKCE. */
async function codeWithoutChallenge(means: OAuthMeans): Promise<string> {
  const exchange = await authorize(means, { scope: accountScope });
  const code = redirectOf(exchange, means).parameters.get('code');
  expectThat(code !== null, '302 to redirect_uri with a code', exchange);
  return code;
}

/** A code issued without code_challenge, exchanged by the target's client with `changes` to the form. */
async function exchangeCodeWithoutChallenge(means: OAuthMeans, changes: Record<string, string>) {
  return tokenRequest({
    grant_type: 'authorization_code',
    code: await codeWithoutChallenge(means),
    redirect_uri: means.client.redirectUri,
    client_id: means.client.clientId,
    client_secret: means.client.clientSecret,
    ...changes,
  });
}

describe('OAuth token endpoint: refusals', () => {
  check(
    ['INF-SCHEMAS-OAUTH-ERROR'],
    'a token request that repeats a parameter (grant_type; code), or sends JSON, is 400 invalid_request: RFC 6749 section 3.2 allows each parameter once, form-encoded, and a repeated grant_type is no unsupported one',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const { clientId, clientSecret, redirectUri } = means.client;
      const client = [
        ['redirect_uri', redirectUri],
        ['client_id', clientId],
        ['client_secret', clientSecret],
      ] as const;
      const grant = ['grant_type', 'authorization_code'] as const;
      const cases = [
        ['grant_type twice', [grant, grant, ['code', 'conformance-unknown-code'], ...client]],
        ['code twice', [grant, ['code', 'conformance-code-1'], ['code', 'conformance-code-2'], ...client]],
      ] as const;
      for (const [label, pairs] of cases)
        expectOAuthError(await tokenRequestPairs(pairs), 400, 'invalid_request', `for ${label}`);
      // And the same fields as JSON, which RFC 6749 section 3.2 does not allow (form encoding only): no fields at all.
      const json = await send(routes.oauthToken.method, routes.oauthToken.url, {
        key: null,
        server: 'auth',
        body: Object.fromEntries([grant, ['code', 'conformance-unknown-code'], ...client]),
      });
      expectOAuthError(json, 400, 'invalid_request', 'for a JSON body');
    },
  );

  check(
    ['AUTH-OAUTH-EXCHANGE', 'INF-SCHEMAS-OAUTH-ERROR'],
    'a client_id that names no client is 401 invalid_client, whatever secret comes with it',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const exchange = await exchangeCodeWithoutChallenge(means, {
        client_id: `${means.client.clientId}-conformance-unknown`,
      });
      expectOAuthError(exchange, 401, 'invalid_client', 'for an unknown client_id');
    },
  );

  check(
    ['AUTH-OAUTH-REFRESH', 'INF-SCHEMAS-OAUTH-ERROR'],
    'a refresh token the server never issued is 400 invalid_grant',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      // Shaped like one the target issues: an issued token with its last characters changed.
      const { refresh_token: issued } = await obtainTokens(means, accountScope);
      const tail = issued.slice(-4);
      const madeUp = `${issued.slice(0, -4)}${tail === 'zzzz' ? 'yyyy' : 'zzzz'}`;
      expectOAuthError(
        await refreshTokens(means, madeUp),
        400,
        'invalid_grant',
        'for a made-up refresh token',
      );
    },
  );

  check(
    ['INF-SCHEMAS-TOKEN-REQUEST-ONEOF-0-PROPERTIES-CODE_VERIFIER', 'INF-SCHEMAS-OAUTH-ERROR'],
    'a code_verifier for a code whose authorization request had no code_challenge is 400 invalid_grant (a PKCE downgrade)',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const exchange = await exchangeCodeWithoutChallenge(means, { code_verifier: pkcePair().verifier });
      expectOAuthError(exchange, 400, 'invalid_grant', 'for a code_verifier the code was not issued for');
    },
  );
});
