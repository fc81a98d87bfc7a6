import { schemaPatterns, securitySchemeFacts } from '../../generated/types/facts.js';
import { type Clock, isoTime } from '../clock.js';
import { randomMatching } from '../random-token.js';
import type { Store } from '../storage/store.js';
import type { AccessTokens } from './access-tokens.js';
import type { ClientCredentials } from './client-authentication.js';
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

async function authenticateClient(store: Store, credentials: ClientCredentials) {
  const client = await store.oauthClients.get(credentials.clientId);
  const fail = (description: string) => new OAuthError('invalid_client', description, credentials.method);
  if (client === null) throw fail('Client authentication failed: unknown client_id or wrong client_secret.');
  if (client.secretHash === null) {
    if (credentials.clientSecret !== undefined)
      throw fail('This client is public: it has no client_secret; send client_id alone.');
    return client;
  }
  if (credentials.clientSecret === undefined)
    throw fail('client_secret is missing: send it with HTTP Basic or in the form.');
  if (!sameSecret(client.secretHash, digest(credentials.clientSecret)))
    throw fail('Client authentication failed: unknown client_id or wrong client_secret.');
  return client;
}

/**
 * The grant (refresh token family) a code's tokens belong to, derived from the code's digest, so that a second use
 * of the code can find and revoke them without storing anything more (RFC 6749 section 4.1.2).
 */
function grantOfCode(codeHash: string): string {
  // Stryker disable next-line MethodExpression: equivalent, the family id is internal: the whole digest names the grant as well as its first 32 characters
  return digest(`grant of ${codeHash}`).slice(0, 32);
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
  const accessToken = await dependencies.accessTokens.issue({ ...grant, grantId: grant.familyId });
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: dependencies.accessTokens.lifetimeSeconds,
    refresh_token: refreshToken,
    scope: grant.scope,
  };
}

/** RFC 7636 section 4.6, and RFC 9700 section 2.1.1: a verifier for a code without a challenge is a downgrade. */
function checkVerifier(challenge: string | null, verifier: string | undefined): void {
  if (challenge === null) {
    if (verifier !== undefined)
      throw new OAuthError(
        'invalid_grant',
        'code_verifier was sent, but the authorization request had no code_challenge.',
      );
    return;
  }
  if (verifier === undefined)
    throw new OAuthError(
      'invalid_grant',
      'code_verifier is missing: this code was issued for a PKCE challenge.',
    );
  if (!verifierMatches(verifier, challenge))
    throw new OAuthError('invalid_grant', 'The code_verifier does not match the code_challenge.');
}

export async function exchangeAuthorizationCode(
  dependencies: GrantDependencies,
  credentials: ClientCredentials,
  form: { code: string; redirect_uri: string; code_verifier?: string },
): Promise<TokenResponse> {
  const client = await authenticateClient(dependencies.store, credentials);
  const now = isoTime(dependencies.clock);
  const codeHash = digest(form.code);
  const code = await dependencies.store.authorizationCodes.consume(codeHash, now);
  if (code === null) {
    // A used code coming back means it leaked: whoever redeemed it first loses the refresh tokens it gave them.
    await dependencies.store.refreshTokens.revokeFamily(grantOfCode(codeHash), now);
    throw new OAuthError(
      'invalid_grant',
      'The authorization code is unknown or was already used; tokens issued for a reused code are revoked.',
    );
  }
  if (code.clientId !== client.id)
    throw new OAuthError('invalid_grant', 'The authorization code was issued to another client.');
  // Stryker disable next-line EqualityOperator: equivalent, < and <= differ only at the expiry's own millisecond, which no request can be timed to hit
  if (code.expiresAt <= now) throw new OAuthError('invalid_grant', 'The authorization code expired.');
  if (code.redirectUri !== form.redirect_uri)
    throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request.');
  checkVerifier(code.codeChallenge, form.code_verifier);
  return issueTokens(dependencies, {
    accountId: code.accountId,
    clientId: client.id,
    scope: code.scope,
    familyId: grantOfCode(codeHash),
  });
}

/** Rotates a refresh token; presenting one that was already used revokes every token of its family (RFC 6819 5.2.2.3). */
export async function refreshAccessToken(
  dependencies: GrantDependencies,
  credentials: ClientCredentials,
  form: { refresh_token: string },
): Promise<TokenResponse> {
  const client = await authenticateClient(dependencies.store, credentials);
  const { store } = dependencies;
  const now = isoTime(dependencies.clock);
  const token = await store.refreshTokens.get(digest(form.refresh_token));
  if (token === null || token.clientId !== client.id)
    throw new OAuthError('invalid_grant', 'Unknown refresh token.');
  // Stryker disable next-line ConditionalExpression: its false mutant is equivalent (markUsed below refuses a revoked token, with invalid_grant too); the disable also drops the killed true mutant, the directive cannot tell them apart
  if (token.revokedAt !== null) throw new OAuthError('invalid_grant', 'The refresh token was revoked.');
  // Stryker disable next-line EqualityOperator: equivalent, as the code's expiry above
  if (token.expiresAt <= now) throw new OAuthError('invalid_grant', 'The refresh token expired.');
  // markUsed refuses a used token atomically: a test of usedAt before it was a second, redundant look.
  if (!(await store.refreshTokens.markUsed(token.tokenHash, now))) {
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
