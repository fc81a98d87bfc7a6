import { createHash, timingSafeEqual } from 'node:crypto';

/** Keys, codes and tokens are stored as SHA-256 digests: they are long random strings, so no slow hash is needed. */
export function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  // Stryker disable next-line ConditionalExpression: equivalent, every caller compares values of one length (SHA-256 hex, a 43-character S256 challenge) or maps any throw to the same refusal (the live-feed handshake)
  return left.length === right.length && timingSafeEqual(left, right);
}
