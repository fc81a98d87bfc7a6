import { randomBytes } from 'node:crypto';

const base62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// 248 = 4 × 62: bytes at or above it are skipped so that every character is equally likely.
const unbiasedLimit = 248;

/** `length` random base62 characters from the system's cryptographic source. */
export function randomBase62(length: number): string {
  let text = '';
  while (text.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < unbiasedLimit && text.length < length) text += base62.charAt(byte % 62);
    }
  }
  return text;
}

/**
 * Request ids in the form the spec gives them: its prefix, then random base62 characters. The generated server
 * passes the prefix and length it read from the spec's request id schema.
 */
export function createRequestIdFactory(prefix: string, length: number): () => string {
  return () => `${prefix}${randomBase62(length)}`;
}
