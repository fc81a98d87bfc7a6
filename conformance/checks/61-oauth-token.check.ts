import { describe } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { securitySchemeFacts } from '../../generated/types/facts.js';
import type { TokenResponse } from '../../generated/types/schemas.js';
import { check, expectThat } from '../harness/check.js';
import { send } from '../harness/probe.js';
import { headerOf } from './support/auth-evidence.js';
import {
  authorize,
  exchangeCode,
  expectOAuthError,
  type OAuthMeans,
  oauthMeans,
  obtainCode,
  obtainTokens,
  redirectOf,
  refreshTokens,
  type Tokens,
  tokenRequest,
  tokensOf,
  unregisteredRedirectUri,
} from './support/auth-oauth.js';
import { oauthScheme, scopesOf } from './support/auth-operations.js';
import { fitsRule, responseHeaders } from './support/auth-spec.js';

const accountScope = (scopesOf(routes.getAccount, oauthScheme) ?? []).join(' ');
const allScopes = Object.keys(securitySchemeFacts.OAuth2.scopes);
const lifetimes = securitySchemeFacts.OAuth2.tokenLifetimes;

/** A code from the documented flow, without PKCE, as the interface document shows it. */
async function documentedCode(means: OAuthMeans, scope: string): Promise<string> {
  const exchange = await authorize(means, { scope });
  const code = redirectOf(exchange, means).parameters.get('code');
  expectThat(code !== null, '302 to redirect_uri with a code', exchange);
  return code;
}

async function expectTokenWorks(tokens: Tokens): Promise<void> {
  const account = await send(routes.getAccount.method, routes.getAccount.url, { key: tokens.access_token });
  expectThat(
    account.response.status === 200,
    `200 from GET ${routes.getAccount.url} with the access token`,
    account,
  );
}

describe('OAuth token endpoint', () => {
  check(
    [
      'AUTH-OAUTH-EXCHANGE',
      'AUTH-TOKEN-RESPONSE',
      'AUTH-TOKEN-TYPE',
      'AUTH-REFRESH-TOKEN-PREFIX',
      'SVC-AUTH-URL',
    ],
    'POST {auth_url}/oauth/token (form: grant_type=authorization_code, code, redirect_uri, client_id, client_secret) answers the token response',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const code = await documentedCode(means, accountScope);
      const exchange = await tokenRequest({
        grant_type: 'authorization_code',
        code,
        redirect_uri: means.client.redirectUri,
        client_id: means.client.clientId,
        client_secret: means.client.clientSecret,
      });
      const tokens = tokensOf(exchange);
      const bearer: TokenResponse['token_type'] = 'Bearer';
      const body = exchange.response.body as { token_type?: unknown };
      expectThat(body.token_type === bearer, `token_type ${bearer}`, exchange);
      for (const rule of responseHeaders({
        path: routes.oauthToken.url,
        method: routes.oauthToken.method,
        status: '200',
      }))
        expectThat(
          fitsRule(rule, headerOf(exchange, rule.name)),
          `the ${rule.name} header the spec gives`,
          exchange,
        );
      await expectTokenWorks(tokens);
    },
  );

  check(
    ['INF-SCHEMAS-TOKEN-REQUEST-ONEOF-0-PROPERTIES-CLIENT_SECRET'],
    'the client authenticates with HTTP Basic (client_secret_basic) instead of the form, and never with both at once (RFC 6749 section 2.3)',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const { clientId, clientSecret } = means.client;
      const basic = Buffer.from(
        `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`,
      ).toString('base64');
      const withBasic = async (fields: Record<string, string>) =>
        send(routes.oauthToken.method, routes.oauthToken.url, {
          key: null,
          server: 'auth',
          rawBody: new URLSearchParams(fields).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
        });
      const exchange = (code: string) => ({
        grant_type: 'authorization_code',
        code,
        redirect_uri: means.client.redirectUri,
      });
      const basicOnly = await withBasic(exchange(await documentedCode(means, accountScope)));
      await expectTokenWorks(tokensOf(basicOnly));
      const both = await withBasic({
        ...exchange(await documentedCode(means, accountScope)),
        client_id: clientId,
        client_secret: clientSecret,
      });
      expectOAuthError(both, 400, 'invalid_request', 'for HTTP Basic and client_secret in one request');
    },
  );

  check(
    ['INF-SCHEMAS-TOKEN-REQUEST-ONEOF-0-PROPERTIES-CLIENT_SECRET'],
    'client authentication done wrong is refused: none at all, client_id without its secret; a matching form client_id beside Basic is accepted',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const { clientId, clientSecret } = means.client;
      const base64 = (text: string) => Buffer.from(text).toString('base64');
      const basicOf = (user: string, password: string) =>
        `Basic ${base64(`${encodeURIComponent(user)}:${encodeURIComponent(password)}`)}`;
      const exchange = async (authorization: string | null, fields: Record<string, string> = {}) =>
        send(routes.oauthToken.method, routes.oauthToken.url, {
          key: null,
          server: 'auth',
          rawBody: new URLSearchParams({
            grant_type: 'authorization_code',
            code: await documentedCode(means, accountScope),
            redirect_uri: means.client.redirectUri,
            ...fields,
          }).toString(),
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            ...(authorization === null ? {} : { authorization }),
          },
        });
      const unauthenticated = await exchange(null);
      expectOAuthError(unauthenticated, 401, 'invalid_client', 'for a request with no client authentication');
      // The spec sends WWW-Authenticate "when the client tried HTTP Basic": a client that did not gets no challenge.
      expectThat(
        headerOf(unauthenticated, 'www-authenticate') === undefined,
        'no WWW-Authenticate challenge for a client that did not try HTTP Basic',
        unauthenticated,
      );
      expectOAuthError(
        await exchange(null, { client_id: clientId }),
        401,
        'invalid_client',
        'for client_id without the client_secret of a confidential client',
      );
      // Malformed Basic credentials and a form client_id other than the Basic one: check 64, with no code needed.
      await expectTokenWorks(
        tokensOf(await exchange(basicOf(clientId, clientSecret), { client_id: clientId })),
      );
    },
  );

  check(
    ['AUTH-TOKEN-EXPIRES-IN', 'LIM-ACCESS-TOKEN-LIFETIME'],
    `expires_in is the access token lifetime (${lifetimes.accessTokenSeconds} s in the documented case)`,
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const tokens = await obtainTokens(means, accountScope);
      const expiresIn = (tokens.exchange.response.body as { expires_in?: unknown }).expires_in;
      expectThat(
        expiresIn === lifetimes.accessTokenSeconds,
        `expires_in ${lifetimes.accessTokenSeconds}, not ${JSON.stringify(expiresIn)}`,
        tokens.exchange,
      );
    },
  );

  check(
    ['AUTH-SCOPES', 'AUTH-TOKEN-SCOPE'],
    'every scope of the spec can be asked for, and scope lists the granted ones, space-separated',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const tokens = await obtainTokens(means, allScopes.join(' '));
      const granted = tokens.scope.split(' ');
      const missing = allScopes.filter((scope) => !granted.includes(scope));
      expectThat(
        missing.length === 0,
        `scope to list every scope asked for (missing ${missing.join(' ')})`,
        tokens.exchange,
      );
      const single = await obtainTokens(means, accountScope);
      expectThat(
        single.scope === accountScope,
        `scope "${accountScope}" when only it was asked for`,
        single.exchange,
      );
    },
  );

  check(
    ['AUTH-OAUTH-REFRESH'],
    'grant_type=refresh_token with refresh_token, client_id and client_secret answers new tokens of the same scope',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const first = await obtainTokens(means, accountScope);
      const refreshed = tokensOf(await refreshTokens(means, first.refresh_token));
      expectThat(refreshed.scope === first.scope, `the scope "${first.scope}" kept`, refreshed.exchange);
      await expectTokenWorks(refreshed);
    },
  );
});

describe('OAuth token endpoint (inferred details)', () => {
  check(
    // The refresh is the document's (AUTH-OAUTH-REFRESH): a stolen, used refresh token that still works breaks it.
    [
      'AUTH-OAUTH-REFRESH',
      'INF-OPENAPI-COMPONENTS-SECURITYSCHEMES-OAUTH2-X-TOKEN-LIFETIMES-REFRESHTOKEN',
      'INF-SCHEMAS-OAUTH-ERROR',
    ],
    'each refresh rotates the refresh token; reusing an old one is invalid_grant and revokes the whole grant',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const first = await obtainTokens(means, accountScope);
      const second = tokensOf(await refreshTokens(means, first.refresh_token));
      expectThat(
        second.refresh_token !== first.refresh_token,
        'a new refresh token on refresh',
        second.exchange,
      );
      expectOAuthError(
        await refreshTokens(means, first.refresh_token),
        400,
        'invalid_grant',
        'for a used refresh token',
      );
      expectOAuthError(
        await refreshTokens(means, second.refresh_token),
        400,
        'invalid_grant',
        'for the newest refresh token of a grant whose old one was reused',
      );
    },
  );

  check(
    [
      'INF-OPENAPI-COMPONENTS-SECURITYSCHEMES-OAUTH2-X-TOKEN-LIFETIMES-AUTHORIZATIONCODE',
      'INF-SCHEMAS-OAUTH-ERROR',
    ],
    'an authorization code is single-use: the second exchange is invalid_grant',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const granted = await obtainCode(means, accountScope);
      tokensOf(await exchangeCode(means, granted));
      expectOAuthError(await exchangeCode(means, granted), 400, 'invalid_grant', 'for a code used before');
    },
  );

  check(
    ['INF-SCHEMAS-OAUTH-ERROR'],
    'token endpoint errors: another redirect_uri is invalid_grant, a wrong client secret 401 invalid_client, an unknown grant_type (also one with a backslash and a non-ASCII letter, whose description must still be RFC 6749 text) unsupported_grant_type',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      expectOAuthError(
        await exchangeCode(means, await obtainCode(means, accountScope), {
          redirect_uri: unregisteredRedirectUri(means),
        }),
        400,
        'invalid_grant',
        'for a redirect_uri other than the authorization request’s',
      );
      expectOAuthError(
        await exchangeCode(means, await obtainCode(means, accountScope), {
          client_secret: `${means.client.clientSecret}x`,
        }),
        401,
        'invalid_client',
        'for a wrong client_secret',
      );
      expectOAuthError(
        await tokenRequest({
          grant_type: 'password',
          client_id: means.client.clientId,
          client_secret: means.client.clientSecret,
        }),
        400,
        'unsupported_grant_type',
        'for grant_type=password',
      );
      // A description that quotes what was sent must still be RFC 6749 text (appendix A.5): no \ and no non-ASCII.
      const oddGrantType = 'pass\\word-\u00e9';
      expectOAuthError(
        await tokenRequest({
          grant_type: oddGrantType,
          client_id: means.client.clientId,
          client_secret: means.client.clientSecret,
        }),
        400,
        'unsupported_grant_type',
        `for grant_type=${oddGrantType}`,
      );
    },
  );
});
