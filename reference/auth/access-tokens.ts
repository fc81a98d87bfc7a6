import { errors, jwtVerify, SignJWT } from 'jose';
import { securitySchemeFacts } from '../../generated/types/facts.js';
import { randomBase62 } from '../../runtime/random-base62.js';
import type { Clock } from '../clock.js';

const lifetimeSeconds = securitySchemeFacts.OAuth2.tokenLifetimes.accessTokenSeconds;

export interface AccessTokenClaims {
  accountId: string;
  clientId: string;
  scope: string;
  /** The OAuth grant (refresh token family) the token was issued for: its rate window is the grant's. */
  grantId: string;
}

/** The claims issue() puts in every token. */
interface IssuedClaims {
  sub: string;
  scope: string;
  client_id: string;
  grant_id: string;
  jti: string;
}

export type AccessTokenCheck =
  | { ok: true; claims: AccessTokenClaims; tokenId: string }
  | { ok: false; expired: boolean };

/**
 * Signed (HS256) JWT access tokens that expire after the spec's access token lifetime, measured on the service clock
 * so a scaled clock makes expiry testable.
 */
export class AccessTokens {
  constructor(
    private readonly key: Uint8Array,
    private readonly clock: Clock,
  ) {}

  readonly lifetimeSeconds = lifetimeSeconds;

  async issue(claims: AccessTokenClaims): Promise<string> {
    const issuedAt = Math.floor(this.clock.now() / 1000);
    return new SignJWT({ scope: claims.scope, client_id: claims.clientId, grant_id: claims.grantId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.accountId)
      .setJti(randomBase62(16))
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + lifetimeSeconds)
      .sign(this.key);
  }

  async verify(token: string): Promise<AccessTokenCheck> {
    try {
      const { payload } = await jwtVerify<IssuedClaims>(token, this.key, {
        algorithms: ['HS256'],
        currentDate: new Date(this.clock.now()),
        clockTolerance: 0,
      });
      // Only issue() signs with this key, and it sets all five claims as strings: a token that verifies has them (a
      // test of their types was dead code, mutants no request can reach).
      const { sub, scope, client_id: clientId, grant_id: grantId, jti } = payload;
      return { ok: true, claims: { accountId: sub, clientId, scope, grantId }, tokenId: jti };
    } catch (error) {
      return { ok: false, expired: error instanceof errors.JWTExpired };
    }
  }
}
