import { createHash, timingSafeEqual } from 'node:crypto';

/** Keys, codes and tokens are stored as SHA-256 digests: they are long random strings, so no slow hash is needed. */
export function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * Whether two secrets are equal, in a time that does not tell where they differ. timingSafeEqual refuses inputs of
 * unequal length, so both sides are compared as SHA-256 digests, which have one length whatever was sent (a length
 * test beside it was a mutant no check can kill: callers compare values of one length).
 */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
