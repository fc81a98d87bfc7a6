import { randomBase62 } from './random-base62.js';

/**
 * Request ids in the form the spec gives them: its prefix, then random base62 characters. The generated server
 * passes the prefix and length it read from the spec's request id schema.
 */
export function createRequestIdFactory(prefix: string, length: number): () => string {
  return () => `${prefix}${randomBase62(length)}`;
}
