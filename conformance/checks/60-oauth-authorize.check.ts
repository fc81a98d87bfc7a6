import { describe } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { check, expectThat } from '../harness/check.js';
import { type Exchange, send } from '../harness/probe.js';
import { unknownKey } from './support/auth-keys.js';
import {
  type AuthorizationParameters,
  authorize,
  authorizeRequest,
  consentRequest,
  describedAsRfc6749Allows,
  exchangeCode,
  expectOAuthError,
  formMeans,
  freshState,
  type OAuthMeans,
  oauthMeans,
  obtainCode,
  obtainTokens,
  pkcePair,
  redirectOf,
  unregisteredRedirectUri,
} from './support/auth-oauth.js';
import { oauthScheme, scopesOf } from './support/auth-operations.js';
import { publicClientMeans, secondClientMeans } from './support/oauth-clients.js';
import { judgesInferred } from './support/rest-requirements.js';

/** The scope of GET /account: the flows ask for it, so the token can prove whom it acts for. */
const accountScope = (scopesOf(routes.getAccount, oauthScheme) ?? []).join(' ');

/** An answer shown to the user: a 400 HTML page and no redirect anywhere. */
function isErrorPage(exchange: Exchange): boolean {
  return (
    exchange.response.status === 400 &&
    exchange.response.headers.location === undefined &&
    (exchange.response.headers['content-type'] ?? '').startsWith('text/html')
  );
}

/**
 * No code for the client: an error page, or a redirect to the client carrying `error` and no `code`, and the `state`
 * the request sent exactly as sent (none when it sent none; RFC 6749 section 4.1.2.1). Under the full profile a
 * redirect's `error` is `rfcError`, that section's code for the case, and its error_description, if any, text RFC 6749
 * allows.
 */
function refusedWithoutCode(
  exchange: Exchange,
  means: OAuthMeans,
  rfcError: string,
  sentState: string | null,
): boolean {
  if (isErrorPage(exchange)) return true;
  const redirect = redirectOf(exchange, means);
  const error = redirect.parameters.get('error');
  return (
    redirect.toClient &&
    error !== null &&
    (!judgesInferred() || error === rfcError) &&
    redirect.parameters.get('code') === null &&
    redirect.parameters.get('state') === sentState &&
    describedAsRfc6749Allows(redirect.parameters.get('error_description') ?? undefined)
  );
}

/** The answer a user would see: at GET where the target auto-approves, else where the consent form is posted. */
async function attempt(means: OAuthMeans, parameters: AuthorizationParameters): Promise<Exchange> {
  const first = await authorizeRequest(means, parameters);
  if (means.consent.kind === 'login-hint' || first.response.status !== 200) return first;
  return consentRequest(means, parameters, 'approve');
}

describe('OAuth authorization request', () => {
  check(
    ['AUTH-OAUTH-AUTHORIZE', 'SVC-AUTH-URL'],
    'GET {auth_url}/oauth/authorize with client_id, redirect_uri, response_type=code, scope and state leads back to redirect_uri with a code and the state unchanged',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const state = freshState();
      const exchange = await authorize(means, { scope: accountScope, state });
      const redirect = redirectOf(exchange, means);
      expectThat(redirect.toClient, '302 to the registered redirect_uri', exchange);
      expectThat(redirect.parameters.get('code') !== null, 'a code in the redirect', exchange);
      expectThat(
        redirect.parameters.get('state') === state,
        `the state returned unchanged (${JSON.stringify(state)})`,
        exchange,
      );
    },
  );

  check(
    ['AUTH-OAUTH-AUTHORIZE'],
    'an unknown client_id or an unregistered redirect_uri is answered with a 400 page, never redirected',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const unknownClient = await authorizeRequest(means, {
        scope: accountScope,
        clientId: `${means.client.clientId}x${pkcePair().verifier.slice(0, 8)}`,
      });
      expectThat(
        isErrorPage(unknownClient),
        'a 400 text/html page without Location for an unknown client',
        unknownClient,
      );
      const unregistered = await authorizeRequest(means, {
        scope: accountScope,
        redirectUri: unregisteredRedirectUri(means),
      });
      expectThat(
        isErrorPage(unregistered),
        'a 400 text/html page without Location for a redirect_uri that is not registered exactly',
        unregistered,
      );
      // A redirect URI registered, but for another client (run when the target names a second client).
      const second = secondClientMeans();
      if (typeof second === 'string') return;
      const othersUri = await authorizeRequest(second, {
        scope: accountScope,
        redirectUri: means.client.redirectUri,
      });
      expectThat(
        isErrorPage(othersUri),
        'a 400 text/html page without Location for the redirect_uri of another client',
        othersUri,
      );
    },
  );

  check(
    ['INF-OPENAPI-PATHS-OAUTH-AUTHORIZE-GET-PARAMETERS-5'],
    'a public client gets no code without code_challenge (RFC 9700 section 2.1.1: PKCE is required of public clients)',
    async ({ skip }) => {
      const publicClient = publicClientMeans();
      if (typeof publicClient === 'string') return skip(publicClient);
      const state = freshState();
      const exchange = await attempt(publicClient, { scope: accountScope, state });
      expectThat(
        refusedWithoutCode(exchange, publicClient, 'invalid_request', state),
        'a 400 page, or a 302 to redirect_uri with error=invalid_request, the state and no code',
        exchange,
      );
    },
  );

  check(
    ['AUTH-OAUTH-AUTHORIZE'],
    'a request without state gets no code (an error page, or an error redirect without code)',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const exchange = await attempt(means, { scope: accountScope, state: null });
      expectThat(
        refusedWithoutCode(exchange, means, 'invalid_request', null),
        'a 400 page, or a 302 to redirect_uri with error=invalid_request and no code',
        exchange,
      );
    },
  );

  check(
    ['AUTH-OAUTH-AUTHORIZE'],
    'a request the authorization server cannot honour gets no code: response_type other than code (with and without state), no scope, an unknown scope (PKCE plain has its own check)',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      // RFC 6749 section 4.1.2.1 names the error; section 3.3: a request without scope fails as invalid_scope.
      const refusals: [AuthorizationParameters, string, string][] = [
        [
          { scope: accountScope, responseType: 'token' },
          'unsupported_response_type',
          'for response_type=token',
        ],
        // RFC 6749 section 4.1.2.1: the error redirect carries state only if the request did.
        [
          { scope: accountScope, responseType: 'token', state: null },
          'unsupported_response_type',
          'for response_type=token without state',
        ],
        [{ scope: '' }, 'invalid_scope', 'for an empty scope'],
        [
          { scope: `${accountScope} conformance:unknown` },
          'invalid_scope',
          'for a scope the spec does not name',
        ],
      ];
      for (const [parameters, rfcError, when] of refusals) {
        const state = parameters.state === null ? null : freshState();
        const exchange = await attempt(means, { ...parameters, state });
        expectThat(
          refusedWithoutCode(exchange, means, rfcError, state),
          `a 400 page, or a 302 to redirect_uri with error=${rfcError}, the state as sent (none if none) and no code, ${when}`,
          exchange,
        );
      }
    },
  );
});

describe('OAuth authorization request (inferred details)', () => {
  check(
    ['INF-OPENAPI-PATHS-OAUTH-AUTHORIZE-GET-PARAMETERS-7'],
    'with login_hint an auto-approving target grants for the hinted account',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      if (means.consent.kind !== 'login-hint') return skip('the target does not auto-approve consent');
      const { accountId } = means.consent;
      const tokens = await obtainTokens(means, accountScope);
      const account = await send(routes.getAccount.method, routes.getAccount.url, {
        key: tokens.access_token,
      });
      expectThat(
        account.response.status === 200 &&
          (account.response.body as { id?: unknown } | undefined)?.id === accountId,
        `GET ${routes.getAccount.url} with the token to answer the hinted account ${accountId}`,
        account,
      );
    },
  );

  check(
    ['INF-OPENAPI-PATHS-OAUTH-AUTHORIZE-POST', 'INF-SCHEMAS-CONSENT-REQUEST'],
    'the consent form: approve redirects with a code, deny with access_denied, both with the state; a key that is not an active secret key gets a page',
    async ({ skip }) => {
      const means = formMeans();
      if (typeof means === 'string') return skip(means);
      const state = freshState();
      const approved = await consentRequest(means, { scope: accountScope, state }, 'approve');
      const approval = redirectOf(approved, means);
      expectThat(
        approval.toClient &&
          approval.parameters.get('code') !== null &&
          approval.parameters.get('state') === state,
        '302 to redirect_uri with a code and the state',
        approved,
      );
      const denied = await consentRequest(means, { scope: accountScope, state }, 'deny');
      const denial = redirectOf(denied, means);
      expectThat(
        denial.toClient &&
          denial.parameters.get('error') === 'access_denied' &&
          denial.parameters.get('code') === null &&
          denial.parameters.get('state') === state,
        '302 to redirect_uri with error=access_denied, the state and no code',
        denied,
      );
      const stranger = await consentRequest(
        means,
        { scope: accountScope, state },
        'approve',
        unknownKey('secret'),
      );
      expectThat(isErrorPage(stranger), 'a 400 page without Location for a key no account holds', stranger);
    },
  );

  check(
    // The exchange of a code is the document's (AUTH-OAUTH-EXCHANGE): a code that anyone holding it may exchange
    // breaks it, so the documented profile judges PKCE too.
    [
      'AUTH-OAUTH-EXCHANGE',
      'INF-OPENAPI-PATHS-OAUTH-AUTHORIZE-GET-PARAMETERS-5',
      'INF-SCHEMAS-TOKEN-REQUEST-ONEOF-0-PROPERTIES-CODE_VERIFIER',
    ],
    'PKCE S256: a code bound to a challenge is exchanged only with its verifier (missing or wrong: invalid_grant)',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      // Each attempt gets its own code: a failed exchange may use the code up.
      const missing = await exchangeCode(means, await obtainCode(means, accountScope), {
        code_verifier: null,
      });
      const wrong = await exchangeCode(means, await obtainCode(means, accountScope), {
        code_verifier: pkcePair().verifier,
      });
      for (const [label, exchange] of [
        ['without code_verifier', missing],
        ['with another verifier', wrong],
      ] as const) {
        expectOAuthError(exchange, 400, 'invalid_grant', label);
      }
      const right = await exchangeCode(means, await obtainCode(means, accountScope));
      expectThat(right.response.status === 200, '200 with the right verifier', right);
    },
  );

  check(
    ['INF-OPENAPI-PATHS-OAUTH-AUTHORIZE-GET-PARAMETERS-6'],
    'a code_challenge_method without a code_challenge gets no code',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const state = freshState();
      const exchange = await attempt(means, { scope: accountScope, state, challengeMethod: 'S256' });
      expectThat(
        refusedWithoutCode(exchange, means, 'invalid_request', state),
        'a 400 page, or a 302 to redirect_uri with error=invalid_request, the state as sent and no code',
        exchange,
      );
    },
  );

  check(
    ['INF-OPENAPI-PATHS-OAUTH-AUTHORIZE-GET-PARAMETERS-6'],
    'a code_challenge_method other than S256 (plain) gets no code',
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      const { verifier } = pkcePair();
      const state = freshState();
      const exchange = await attempt(means, {
        scope: accountScope,
        state,
        challenge: verifier,
        challengeMethod: 'plain',
      });
      // RFC 7636 section 4.4.1: a transformation the server does not support is invalid_request.
      expectThat(
        refusedWithoutCode(exchange, means, 'invalid_request', state),
        'a 400 page, or a 302 to redirect_uri with error=invalid_request, the state as sent and no code',
        exchange,
      );
    },
  );
});
