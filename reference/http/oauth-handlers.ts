import type { Handlers } from '../../generated/server/handlers.js';
import { routes } from '../../generated/server/routes.js';
import type { OauthTokenRequestBody } from '../../generated/types/operations.js';
import type { RenderError } from '../../runtime/fastify-routes.js';
import { apiKeyKindOf } from '../auth/api-keys.js';
import {
  checkAuthorizationRequest,
  grantAuthorizationCode,
  redirectWith,
} from '../auth/authorization-requests.js';
import { clientCredentials } from '../auth/client-authentication.js';
import { OAuthError, rfc6749Description } from '../auth/oauth-errors.js';
import { exchangeAuthorizationCode, refreshAccessToken } from '../auth/oauth-grants.js';
import { digest } from '../auth/secrets.js';
import { addressRefusalMessage, addressRefused, countAddress } from './address-limit.js';
import type { Caller } from './authenticate-hook.js';
import { consentPage, errorPage } from './consent-page.js';
import type { ServiceDependencies } from './dependencies.js';
import { repeatedAuthorization } from './http-edges.js';

type OAuthHandlers = Pick<Handlers<Caller>, 'oauthAuthorize' | 'oauthConsent' | 'oauthToken'>;

/** The account a secret API key belongs to, or null: the consent form's stand-in for a dashboard login. */
async function accountOfSecretKey(dependencies: ServiceDependencies, key: string): Promise<string | null> {
  if (apiKeyKindOf(key) !== 'secret') return null;
  const row = await dependencies.store.apiKeys.findByHash(digest(key));
  return row !== null && row.status === 'active' ? row.accountId : null;
}

export function oauthHandlers(dependencies: ServiceDependencies): OAuthHandlers {
  const { store, clock } = dependencies;
  return {
    oauthAuthorize: async ({ query }) => {
      const check = await checkAuthorizationRequest(store, query);
      if (check.kind === 'show-error') return { status: 400, body: errorPage(check.message) };
      if (check.kind === 'redirect-error') return { status: 302, headers: { Location: check.location } };
      if (!dependencies.autoApproveConsent)
        return { status: 200, body: consentPage(check.request, routes.oauthConsent.url) };
      const accountId = query.login_hint ?? check.request.client.accountId;
      if ((await store.accounts.get(accountId)) === null)
        return { status: 400, body: errorPage('Unknown login_hint account.') };
      return {
        status: 302,
        headers: { Location: await grantAuthorizationCode(store, clock, check.request, accountId) },
      };
    },
    oauthConsent: async ({ body, raw }) => {
      const refused = await addressRefused(dependencies.addressLimit, raw);
      if (refused !== null) {
        return {
          status: 429,
          body: errorPage(addressRefusalMessage(refused)),
          headers: { 'Retry-After': refused.resetSeconds },
        };
      }
      const check = await checkAuthorizationRequest(store, body);
      if (check.kind === 'show-error') return { status: 400, body: errorPage(check.message) };
      if (check.kind === 'redirect-error') return { status: 302, headers: { Location: check.location } };
      const accountId = await accountOfSecretKey(dependencies, body.api_key);
      if (accountId === null) {
        await countAddress(dependencies.addressLimit, raw);
        return { status: 400, body: errorPage('That is not an active secret API key.') };
      }
      if (body.decision === 'deny') {
        return {
          status: 302,
          headers: {
            Location: redirectWith(check.request.redirectUri, {
              error: 'access_denied',
              state: check.request.state,
            }),
          },
        };
      }
      return {
        status: 302,
        headers: { Location: await grantAuthorizationCode(store, clock, check.request, accountId) },
      };
    },
    oauthToken: async ({ body, raw }) => {
      const refused = await addressRefused(dependencies.addressLimit, raw);
      if (refused !== null) {
        return {
          status: 429,
          body: { error: 'temporarily_unavailable', error_description: addressRefusalMessage(refused) },
          headers: { 'Retry-After': refused.resetSeconds },
        };
      }
      const grants = { store, clock, accessTokens: dependencies.accessTokens };
      try {
        if (repeatedAuthorization(raw))
          throw new OAuthError('invalid_request', 'Send one Authorization header; this request has several.');
        const credentials = clientCredentials(raw.headers.authorization, body);
        const tokens =
          body.grant_type === 'authorization_code'
            ? await exchangeAuthorizationCode(grants, credentials, body)
            : await refreshAccessToken(grants, credentials, body);
        return { status: 200, body: tokens, headers: { 'Cache-Control': 'no-store' } };
      } catch (error) {
        if (!(error instanceof OAuthError)) throw error;
        // A wrong secret, code or refresh token is a guess: it counts against the address.
        await countAddress(dependencies.addressLimit, raw);
        if (error.status !== 401) return { status: 400, body: error.toBody() };
        const challenge = error.challenge;
        return challenge === undefined
          ? { status: 401, body: error.toBody() }
          : { status: 401, body: error.toBody(), headers: { 'WWW-Authenticate': challenge } };
      }
    },
  };
}

/** The grant types of the spec's token request, checked against the generated type so a new one cannot be missed. */
const grantTypes: Record<OauthTokenRequestBody['grant_type'], true> = {
  authorization_code: true,
  refresh_token: true,
};

const pageOperations: ReadonlySet<string> = new Set<keyof OAuthHandlers>(['oauthAuthorize', 'oauthConsent']);
const tokenOperation: keyof OAuthHandlers = 'oauthToken';

/**
 * The first parameter a request gives more than once (the form and query parsers make it an array), or null. RFC 6749
 * sections 3.1 and 3.2 allow each parameter once and name a repeated one invalid_request: said so, rather than what the
 * schema makes of an array (`must be string`, or an alternative's missing field).
 */
function repeatedParameter(fields: unknown): string | null {
  // A body never parsed (refused for its content type) is undefined: nothing is repeated in it.
  for (const [name, value] of Object.entries(fields ?? {})) if (Array.isArray(value)) return name;
  return null;
}

function repeatedMessage(name: string): string {
  return `The parameter ${name} is given more than once; each may appear once (RFC 6749 sections 3.1 and 3.2).`;
}

/** Validation failures at the token endpoint are RFC 6749 bodies; at the authorization endpoint, pages; else the envelope. */
export const renderOAuthError: RenderError = ({ problem, operationId, request }) => {
  if (problem.status >= 500) return null;
  if (pageOperations.has(operationId)) {
    const repeated = repeatedParameter(request.method === 'GET' ? request.query : request.body);
    const message = repeated === null ? problem.message : repeatedMessage(repeated);
    return { status: 400, body: errorPage(message), headers: { 'Content-Type': 'text/html' } };
  }
  if (operationId !== tokenOperation) return null;
  // Before the grant type: a repeated grant_type is a malformed request, not a grant type the server lacks.
  const repeated = repeatedParameter(request.body);
  if (repeated !== null)
    return {
      status: 400,
      body: { error: 'invalid_request', error_description: rfc6749Description(repeatedMessage(repeated)) },
    };
  const grantType = (request.body as { grant_type?: unknown } | undefined)?.grant_type;
  const known = typeof grantType === 'string' && Object.hasOwn(grantTypes, grantType);
  if (grantType !== undefined && !known) {
    const supported = Object.keys(grantTypes).join(' or ');
    const description = `grant_type ${JSON.stringify(grantType)} is not supported; use ${supported}.`;
    return {
      status: 400,
      body: { error: 'unsupported_grant_type', error_description: rfc6749Description(description) },
    };
  }
  return {
    status: 400,
    body: { error: 'invalid_request', error_description: rfc6749Description(problem.message) },
  };
};
