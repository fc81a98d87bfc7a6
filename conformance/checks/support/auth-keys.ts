// API keys the auth checks present: the target's own, and well-formed ones that exist nowhere.
import { securitySchemeFacts } from '../../../generated/types/facts.js';
import { currentTarget } from '../../harness/target.js';
import { valueMatching } from './auth-operations.js';

export const keyTypes = securitySchemeFacts.ApiKey.keyTypes;
export type KeyKind = 'secret' | 'publishable';
export const keyKinds: readonly KeyKind[] = ['secret', 'publishable'];

/** A key of the kind's format that no account holds (random, so it names no real key). */
export function unknownKey(kind: KeyKind): string {
  return valueMatching(keyTypes[kind].pattern, 0);
}

/**
 * A secret key of the paid account other than the primary one where the target gives extras: the rate-limit checks
 * (run last) count on the primary key's window being untouched.
 */
export function spareSecretKey(): string | null {
  const { keys } = currentTarget();
  return keys.paidSecretExtras[0] ?? keys.paidSecret;
}

/** Every secret key the target names (of either account, revoked included): their formats are judged together. */
export function secretKeysOfTarget(): string[] {
  const { keys } = currentTarget();
  return [keys.paidSecret, keys.freeSecret, keys.revoked, ...keys.paidSecretExtras].filter(
    (key): key is string => key !== null,
  );
}
