import { schemaPatterns, securitySchemeFacts } from '../../generated/types/facts.js';
import { type Clock, isoTime } from '../clock.js';
import { randomBase62, randomMatching } from '../random-token.js';
import type { Store } from '../storage/store.js';
import type { AccessTokens } from './access-tokens.js';
import { OAuthError } from './oauth-errors.js';
import { verifierMatches } from './pkce.js';
import { digest, sameSecret } from './secrets.js';

const lifetimes = securitySchemeFacts.OAuth2.tokenLifetimes;

export interface GrantDependencies {
  store: Store;
  clock: Clock;
  accessTokens: AccessTokens;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

async function authenticateClient(store: Store, clientId: string, clientSecret: string) {
  const client = await store.oauthClients.get(clientId);
  if (client === null || !sameSecret(client.secretHash, digest(clientSecret))) {
    throw new OAuthError('invalid_client', 'Client authentication failed.');
  }
  return client;
}

/** Issues an access token and a new refresh token of `familyId` (a new family for a fresh authorization). */
async function issueTokens(
  dependencies: GrantDependencies,
  grant: { accountId: string; clientId: string; scope: string; familyId: string },
): Promise<TokenResponse> {
  const refreshToken = randomMatching(schemaPatterns['TokenResponse.refresh_token'], 40);
  const expiresAt = new Date(
    dependencies.clock.now() + lifetimes.refreshToken.lifetimeSeconds * 1000,
  ).toISOString();
  await dependencies.store.refreshTokens.insert({
    tokenHash: digest(refreshToken),
    familyId: grant.familyId,
    clientId: grant.clientId,
    accountId: grant.accountId,
    scope: grant.scope,
    expiresAt,
    usedAt: null,
    revokedAt: null,
  });
  const accessToken = await dependencies.accessTokens.issue(grant);
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: dependencies.accessTokens.lifetimeSeconds,
    refresh_token: refreshToken,
    scope: grant.scope,
  };
}

export async function exchangeAuthorizationCode(
  dependencies: GrantDependencies,
  form: {
    code: string;
    redirect_uri: string;
    client_id: string;
    client_secret: string;
    code_verifier?: string;
  },
): Promise<TokenResponse> {
  const client = await authenticateClient(dependencies.store, form.client_id, form.client_secret);
  const now = isoTime(dependencies.clock);
  const code = await dependencies.store.authorizationCodes.consume(digest(form.code), now);
  if (code === null || code.clientId !== client.id)
    throw new OAuthError('invalid_grant', 'The authorization code is unknown or was already used.');
  if (code.expiresAt <= now) throw new OAuthError('invalid_grant', 'The authorization code expired.');
  if (code.redirectUri !== form.redirect_uri)
    throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request.');
  if (
    code.codeChallenge !== null &&
    (form.code_verifier === undefined || !verifierMatches(form.code_verifier, code.codeChallenge))
  ) {
    throw new OAuthError('invalid_grant', 'The code_verifier does not match the code_challenge.');
  }
  return issueTokens(dependencies, {
    accountId: code.accountId,
    clientId: client.id,
    scope: code.scope,
    familyId: randomBase62(24),
  });
}

/** Rotates a refresh token; presenting one that was already used revokes every token of its family (RFC 6819 5.2.2.3). */
export async function refreshAccessToken(
  dependencies: GrantDependencies,
  form: { refresh_token: string; client_id: string; client_secret: string },
): Promise<TokenResponse> {
  const client = await authenticateClient(dependencies.store, form.client_id, form.client_secret);
  const { store } = dependencies;
  const now = isoTime(dependencies.clock);
  const token = await store.refreshTokens.get(digest(form.refresh_token));
  if (token === null || token.clientId !== client.id)
    throw new OAuthError('invalid_grant', 'Unknown refresh token.');
  if (token.revokedAt !== null) throw new OAuthError('invalid_grant', 'The refresh token was revoked.');
  if (token.expiresAt <= now) throw new OAuthError('invalid_grant', 'The refresh token expired.');
  if (token.usedAt !== null || !(await store.refreshTokens.markUsed(token.tokenHash, now))) {
    await store.refreshTokens.revokeFamily(token.familyId, now);
    throw new OAuthError(
      'invalid_grant',
      'The refresh token was already used; every token of its grant is revoked.',
    );
  }
  return issueTokens(dependencies, {
    accountId: token.accountId,
    clientId: client.id,
    scope: token.scope,
    familyId: token.familyId,
  });
}
