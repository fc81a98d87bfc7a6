// Credentials beyond one scope and one exact URI (issue 13, family 5): a token holding two scopes may do what each
// allows and nothing more, an unknown scope gets no token for it, and a redirect_uri that differs from the
// registered one in any way (a trailing slash, case, a port, an encoded character, a query) is refused at both ends
// of the flow.
import { describe } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { errorRoles } from '../../generated/types/errors.js';
import { check, expectThat } from '../harness/check.js';
import { type Exchange, send } from '../harness/probe.js';
import {
  authorizeRequest,
  consentRequest,
  exchangeCode,
  expectOAuthError,
  type OAuthMeans,
  oauthMeans,
  obtainCode,
  obtainTokens,
  pkcePair,
  redirectOf,
} from './support/auth-oauth.js';
import { oauthScheme, scopesOf } from './support/auth-operations.js';

type OperationId = keyof typeof routes;
const scopeCode = errorRoles.insufficientScope;

const scopeOf = (operationId: OperationId) => scopesOf(routes[operationId], oauthScheme) ?? [];

/** Two read operations of different scopes, and operations that need neither scope. */
const granted: OperationId[] = ['listStreams', 'listReports'];
const refused: OperationId[] = ['listWebhooks', 'getAccount', 'createReport'];

/** The registered redirect URI changed in one way each: none of them is the registered one. */
function redirectVariants(registered: string): Array<[string, string]> {
  const url = new URL(registered);
  const path = url.pathname;
  const withPath = (pathname: string) => Object.assign(new URL(registered), { pathname }).toString();
  const port = url.port === '' ? '8443' : String(Number(url.port) + 1);
  return [
    ['a trailing slash', withPath(path.endsWith('/') ? path.slice(0, -1) || '/x' : `${path}/`)],
    ['the path in upper case', withPath(path.toUpperCase() === path ? `${path}X` : path.toUpperCase())],
    ['another port', Object.assign(new URL(registered), { port }).toString()],
    ['an encoded character', withPath(`${path}%2F`)],
    ['a query added', `${registered}${url.search === '' ? '?' : '&'}conformance=1`],
  ];
}

function refusedWithoutRedirect(exchange: Exchange, means: OAuthMeans): boolean {
  const { toClient, parameters } = redirectOf(exchange, means);
  const location = exchange.response.headers.location;
  return (
    exchange.response.status === 400 && location === undefined && !toClient && parameters.get('code') === null
  );
}

describe('credentials beyond one scope', () => {
  check(
    ['AUTH-SCOPES', 'AUTH-TOKEN-SCOPE', 'ERR-INSUFFICIENT-SCOPE'],
    'a token granted two scopes may do what either allows, and is insufficient_scope for everything else',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const scopes = [...new Set(granted.flatMap(scopeOf))];
      expectThat(scopes.length === 2, 'two scopes between the granted operations');
      const tokens = await obtainTokens(means, scopes.join(' '));
      expectThat(
        tokens.scope.split(' ').sort().join(' ') === [...scopes].sort().join(' '),
        `scope "${scopes.join(' ')}" granted`,
        tokens.exchange,
      );
      for (const operationId of granted) {
        const exchange = await send(routes[operationId].method, routes[operationId].url, {
          key: tokens.access_token,
        });
        expectThat(exchange.response.status === 200, `${operationId} allowed with either scope`, exchange);
      }
      for (const operationId of refused) {
        expectThat(
          scopeOf(operationId).every((scope) => !scopes.includes(scope)),
          `${operationId} needs neither scope`,
        );
        const exchange = await send(routes[operationId].method, routes[operationId].url, {
          key: tokens.access_token,
          ...(routes[operationId].requestBody === null ? {} : { body: { title: 'Conformance' } }),
        });
        const code = (exchange.response.body as { error?: { code?: unknown } } | undefined)?.error?.code;
        expectThat(
          exchange.response.status === 403 && code === scopeCode,
          `403 ${scopeCode} for ${operationId}`,
          exchange,
        );
      }
    },
    60_000,
  );

  check(
    ['AUTH-SCOPES', 'AUTH-OAUTH-AUTHORIZE'],
    'a scope the service does not have is never granted: the request is refused, or the token lacks it',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const known = scopeOf('getAccount').join(' ');
      const asked = `${known} conformance:unknown`;
      const { verifier, challenge } = pkcePair();
      const parameters = { scope: asked, state: 'conformance', challenge };
      const first = await authorizeRequest(means, parameters);
      const exchange =
        means.consent.kind === 'form' && first.response.status === 200
          ? await consentRequest(means, parameters, 'approve')
          : first;
      const redirect = redirectOf(exchange, means);
      const code = redirect.parameters.get('code');
      if (!redirect.toClient || code === null) {
        expectThat(
          exchange.response.status === 400 || redirect.parameters.get('error') !== null,
          'a refusal',
          exchange,
        );
        return;
      }
      const answer = await exchangeCode(means, { code, state: 'conformance', verifier, exchange });
      const scope = (answer.response.body as { scope?: unknown } | undefined)?.scope;
      expectThat(
        answer.response.status !== 200 ||
          (typeof scope === 'string' && !scope.includes('conformance:unknown')),
        'no token holding the unknown scope',
        answer,
      );
    },
    60_000,
  );
});

describe('redirect_uri is matched exactly', () => {
  check(
    ['AUTH-OAUTH-AUTHORIZE', 'AUTH-OAUTH-EXCHANGE'],
    'a redirect_uri differing from the registered one (trailing slash, case, port, encoded character, query) gets a 400 page at authorization and invalid_grant at exchange',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const scope = scopeOf('getAccount').join(' ');
      for (const [how, redirectUri] of redirectVariants(means.client.redirectUri)) {
        const exchange = await authorizeRequest(means, { scope, redirectUri });
        expectThat(refusedWithoutRedirect(exchange, means), `a 400 page, no redirect, for ${how}`, exchange);
        const answer = await exchangeCode(means, await obtainCode(means, scope), {
          redirect_uri: redirectUri,
        });
        expectOAuthError(answer, 400, 'invalid_grant', `for a redirect_uri with ${how} at exchange`);
      }
    },
    60_000,
  );
});
