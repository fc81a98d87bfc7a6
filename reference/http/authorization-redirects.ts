import type { preValidationAsyncHookHandler } from 'fastify';
import { routes } from '../../generated/server/routes.js';
import { validateOauthAuthorizeQuery } from '../../generated/validators/index.js';
import { checkAuthorizationRequest, redirectWith } from '../auth/authorization-requests.js';
import { rfc6749Description } from '../auth/oauth-errors.js';
import type { ServiceDependencies } from './dependencies.js';

/**
 * RFC 6749 section 4.1.2.1: once the client and its redirect URI are known to be good, every other fault of an
 * authorization request (no state, another response_type, a malformed code_challenge) goes back to the client as a
 * redirect with `error`, not as a page. The operation's validators run inside its handler and would answer a page,
 * so this hook looks first; it leaves an unknown client or redirect URI to them (a page, never a redirect).
 */
export function redirectInvalidAuthorization(
  dependencies: ServiceDependencies,
  prefix: string,
): preValidationAsyncHookHandler {
  const { method, url } = routes.oauthAuthorize;
  return async (request, reply) => {
    if (request.method !== method || request.routeOptions.url !== `${prefix}${url}`) return;
    const query = request.query as Record<string, unknown>;
    if (typeof query.client_id !== 'string' || typeof query.redirect_uri !== 'string') return;
    const validation = validateOauthAuthorizeQuery(query);
    if (validation.ok) return;
    const strings = Object.fromEntries(
      Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    const check = await checkAuthorizationRequest(dependencies.store, {
      ...strings,
      client_id: query.client_id,
      redirect_uri: query.redirect_uri,
    });
    if (check.kind === 'show-error') return;
    const state = typeof query.state === 'string' && query.state !== '' ? { state: query.state } : {};
    const location =
      check.kind === 'redirect-error'
        ? check.location
        : redirectWith(query.redirect_uri, {
            error: 'invalid_request',
            error_description: rfc6749Description(validation.error.message),
            ...state,
          });
    return reply.code(302).header('Location', location).send();
  };
}
