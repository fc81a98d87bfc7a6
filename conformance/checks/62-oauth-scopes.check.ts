import { describe } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { errorRoles } from '../../generated/types/errors.js';
import { securitySchemeFacts } from '../../generated/types/facts.js';
import { check, expectThat } from '../harness/check.js';
import { type Exchange, send } from '../harness/probe.js';
import {
  type ErrorCode,
  errorLabel,
  expectEvery,
  hasErrorType,
  hasStatusAndCode,
  headerOf,
  statusAndCode,
  statusAndType,
  wasLetThrough,
} from './support/auth-evidence.js';
import { oauthMeans, obtainTokens } from './support/auth-oauth.js';
import {
  allows,
  credentialedOperations,
  oauthScheme,
  once,
  probeOperations,
  type Route,
  scopesOf,
} from './support/auth-operations.js';
import { fitsRule, responseHeader } from './support/auth-spec.js';
import { bearerChallenge } from './support/www-authenticate.js';

const scopeCode: ErrorCode = errorRoles.insufficientScope;
const invalidCode: ErrorCode = errorRoles.invalidCredentials;
const allScopes = Object.keys(securitySchemeFacts.OAuth2.scopes);

interface ScopedProbe {
  scope: string;
  route: Route;
  exchange: Exchange;
  /** Whether the token's one scope covers what the operation asks of the OAuth2 scheme. */
  allowed: boolean;
}

/** For each scope of the spec, a token holding only it, sent to every operation (made-up ids, empty bodies). */
const probesPerScope = once(async (): Promise<ScopedProbe[]> => {
  const means = oauthMeans();
  if (typeof means === 'string') throw new Error(`the checks skip without OAuth means: ${means}`);
  const perScope = await Promise.all(
    allScopes.map(async (scope) => {
      const tokens = await obtainTokens(means, scope);
      const probes = await probeOperations(credentialedOperations, { key: tokens.access_token });
      return probes.map(({ route, exchange }) => ({
        scope,
        route,
        exchange,
        allowed: allows(route, oauthScheme, [scope]),
      }));
    }),
  );
  return perScope.flat();
});

const outside = (probes: ScopedProbe[]) => probes.filter((probe) => !probe.allowed);

describe('OAuth scopes', () => {
  check(
    ['ERR-INSUFFICIENT-SCOPE', 'ERR-403', 'AUTH-SCOPES', 'EP-BEARER'],
    `an access token (sent as Bearer) works on every operation within its scope and is ${statusAndCode(scopeCode)} outside it`,
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const probes = await probesPerScope();
      expectEvery(
        probes.filter((probe) => probe.allowed),
        wasLetThrough,
        'neither an authentication nor a permission error (nor a 5xx) for a token holding the scope',
      );
      expectEvery(
        outside(probes),
        (exchange) => hasStatusAndCode(exchange, scopeCode),
        statusAndCode(scopeCode),
      );
      expectEvery(outside(probes), (exchange) => hasErrorType(exchange, scopeCode), statusAndType(scopeCode));
    },
    60_000,
  );

  check(
    ['AUTH-SCOPES', 'AUTH-TOKEN-SCOPE'],
    'a token granted every scope at once holds each: its token response lists them all, and it works on every operation',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const tokens = await obtainTokens(means, allScopes.join(' '));
      const granted = new Set(tokens.scope.split(' '));
      const missing = allScopes.filter((scope) => !granted.has(scope));
      expectThat(
        missing.length === 0,
        `scope "${tokens.scope}" lists every scope asked for (missing: ${missing.join(', ')})`,
        tokens.exchange,
      );
      const probes = await probeOperations(
        credentialedOperations.filter((route) => allows(route, oauthScheme, allScopes)),
        { key: tokens.access_token },
      );
      expectEvery(
        probes,
        wasLetThrough,
        'neither an authentication nor a permission error (nor a 5xx) for a token holding every scope',
      );
    },
    60_000,
  );

  check(
    ['ERR-INVALID-TOKEN'],
    `an access token whose signature was altered is ${statusAndCode(invalidCode)}`,
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const { access_token } = await obtainTokens(
        means,
        (scopesOf(routes.getAccount, oauthScheme) ?? []).join(' '),
      );
      const [header, payload, signature = ''] = access_token.split('.');
      // Another first character changes the signature's first byte.
      const forged = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
      const exchange = await send(routes.getAccount.method, routes.getAccount.url, { key: forged });
      expectThat(
        hasStatusAndCode(exchange, invalidCode) && hasErrorType(exchange, invalidCode),
        errorLabel(invalidCode),
        exchange,
      );
    },
  );
});

describe('OAuth scopes (inferred details)', () => {
  const challenge = responseHeader('Forbidden', 'WWW-Authenticate');

  check(
    ['INF-OPENAPI-COMPONENTS-HEADERS-WWWAUTHENTICATE'],
    `a ${statusAndCode(scopeCode)} carries a Bearer challenge with error="${scopeCode}" and the scope the operation needs`,
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const probes = outside(await probesPerScope());
      const named = (exchange: Exchange, route: Route) => {
        const value = headerOf(exchange, challenge.name);
        const parameters = bearerChallenge(value);
        const listed = parameters?.get('scope')?.split(' ') ?? [];
        // RFC 6750's error code for this case has the same name as the API's.
        return (
          fitsRule(challenge, value) &&
          parameters?.get('error') === scopeCode &&
          (scopesOf(route, oauthScheme) ?? []).some((scope) => listed.includes(scope))
        );
      };
      expectEvery(
        probes,
        named,
        `${challenge.name} matching ${challenge.pattern} with error="${scopeCode}" and scope="<the operation's scope>"`,
      );
    },
    60_000,
  );

  check(
    ['INF-SCHEMAS-ERROR-CODE-ONEOF-INSUFFICIENT_SCOPE'],
    `${scopeCode} comes with its status's error type`,
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      expectEvery(
        outside(await probesPerScope()),
        (exchange) => hasStatusAndCode(exchange, scopeCode) && hasErrorType(exchange, scopeCode),
        errorLabel(scopeCode),
      );
    },
    60_000,
  );
});
