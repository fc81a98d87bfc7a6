import { securitySchemeFacts } from '../../generated/types/facts.js';
import type { Clock } from '../clock.js';
import { randomBase62 } from '../random-token.js';
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

export async function checkAuthorizationRequest(
  store: Store,
  query: Record<string, string | undefined>,
): Promise<AuthorizationCheck> {
  const client = query.client_id === undefined ? null : await store.oauthClients.get(query.client_id);
  if (client === null) return { kind: 'show-error', message: 'Unknown client_id.' };
  const redirectUri = query.redirect_uri ?? '';
  if (!client.redirectUris.includes(redirectUri))
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
  if (query.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code.');
  if (state === '') return fail('invalid_request', 'state is required.');
  const scopes = (query.scope ?? '').split(' ').filter((scope) => scope !== '');
  if (scopes.length === 0 || scopes.some((scope) => !knownScopes.has(scope)))
    return fail('invalid_scope', 'Unknown or missing scope.');
  // RFC 9700 section 2.1.1: a public client must use PKCE; a confidential one may, as the spec's x-inferred decides.
  const challenge = query.code_challenge ?? null;
  if (challenge === null && client.secretHash === null) {
    return fail(
      'invalid_request',
      'code_challenge is required: this client is public, so it must use PKCE with code_challenge_method=S256.',
    );
  }
  if (challenge !== null && query.code_challenge_method !== 'S256')
    return fail('invalid_request', 'code_challenge_method must be S256.');
  if (challenge === null && query.code_challenge_method !== undefined)
    return fail('invalid_request', 'code_challenge is missing.');
  return {
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
