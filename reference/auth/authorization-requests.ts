import { securitySchemeFacts } from '../../generated/types/facts.js';
import { randomBase62 } from '../../runtime/random-base62.js';
import type { Clock } from '../clock.js';
import type { OAuthClientRow } from '../storage/rows.js';
import type { Store } from '../storage/store.js';
import { digest } from './secrets.js';

const knownScopes = new Set(Object.keys(securitySchemeFacts.OAuth2.scopes));
const codeLifetimeSeconds = securitySchemeFacts.OAuth2.tokenLifetimes.authorizationCode.lifetimeSeconds;

export interface AuthorizationRequest {
  client: OAuthClientRow;
  redirectUri: string;
  scope: string;
  state: string;
  codeChallenge: string | null;
}

/**
 * RFC 6749 4.1.2.1: an unknown client or a redirect URI not registered for it exactly is shown to the user and never
 * redirected (it could be an open redirector); other errors go back to the client's redirect URI with `state`.
 */
export type AuthorizationCheck =
  | { kind: 'valid'; request: AuthorizationRequest }
  | { kind: 'show-error'; message: string }
  | { kind: 'redirect-error'; location: string };

export function redirectWith(redirectUri: string, parameters: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * The parameters of an authorization request (the query of GET, or the consent form). The client and its redirect
 * URI are known to be strings; the rest is as the client sent it, validated against the spec's schema before (the
 * handlers) or found invalid by it (the redirecting hook, which needs only this function's verdict on the client).
 */
export interface AuthorizationQuery {
  client_id: string;
  redirect_uri: string;
  response_type?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

export async function checkAuthorizationRequest(
  store: Store,
  query: AuthorizationQuery,
): Promise<AuthorizationCheck> {
  const client = await store.oauthClients.get(query.client_id);
  // Stryker disable next-line StringLiteral: equivalent, the page's wording is not the spec's: it says only that the request is shown as a page, never redirected
  if (client === null) return { kind: 'show-error', message: 'Unknown client_id.' };
  const redirectUri = query.redirect_uri;
  if (!client.redirectUris.includes(redirectUri))
    // Stryker disable next-line StringLiteral: equivalent, as above
    return { kind: 'show-error', message: 'redirect_uri is not registered for this client.' };
  const state = query.state ?? '';
  const fail = (error: string, description: string): AuthorizationCheck => ({
    kind: 'redirect-error',
    location: redirectWith(redirectUri, {
      error,
      error_description: description,
      ...(state === '' ? {} : { state }),
    }),
  });
  // The schema's own faults (no state, a method other than S256) are the hook's invalid_request; those with codes of
  // their own in RFC 6749 section 4.1.2.1, and the rules no schema states, are judged here.
  if (query.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code.');
  // Stryker disable next-line StringLiteral: equivalent, a missing scope and any default word are unknown scopes alike (hides the killed mutant of the separator with it)
  const scopes = (query.scope ?? '').split(' ');
  if (scopes.some((scope) => !knownScopes.has(scope)))
    return fail('invalid_scope', 'Unknown or missing scope.');
  // RFC 9700 section 2.1.1: a public client must use PKCE; a confidential one may, as the spec's x-inferred decides.
  const challenge = query.code_challenge ?? null;
  if (challenge === null && client.secretHash === null) {
    return fail(
      'invalid_request',
      'code_challenge is required: this client is public, so it must use PKCE with code_challenge_method=S256.',
    );
  }
  if (challenge === null && query.code_challenge_method !== undefined)
    return fail('invalid_request', 'code_challenge is missing.');
  return {
    // Stryker disable next-line StringLiteral: equivalent, callers tell the two error kinds apart and take anything else as valid
    kind: 'valid',
    request: { client, redirectUri, scope: scopes.join(' '), state, codeChallenge: challenge },
  };
}

/** Stores a single-use code for the account that consented and returns where to send the browser. */
export async function grantAuthorizationCode(
  store: Store,
  clock: Clock,
  request: AuthorizationRequest,
  accountId: string,
): Promise<string> {
  const code = randomBase62(32);
  await store.authorizationCodes.insert({
    codeHash: digest(code),
    clientId: request.client.id,
    accountId,
    redirectUri: request.redirectUri,
    scope: request.scope,
    codeChallenge: request.codeChallenge,
    expiresAt: new Date(clock.now() + codeLifetimeSeconds * 1000).toISOString(),
    usedAt: null,
  });
  return redirectWith(request.redirectUri, { code, state: request.state });
}
