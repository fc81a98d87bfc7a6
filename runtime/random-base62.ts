import { randomFillSync } from 'node:crypto';

const base62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// One CSPRNG call fills bytes for many values (a request makes several: its request id, and a new object's ids and
// secrets; a call per value showed in REST profiles, issue 16).
// Each byte is handed out once and zeroed after use, so a secret never lingers in the pool after it was made.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function nextRandomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const byte = pool[poolOffset] as number;
  pool[poolOffset] = 0;
  poolOffset += 1;
  return byte;
}

const alphabet = Buffer.from(base62, 'latin1');
// 248 = 4 × 62: bytes at or above it are skipped so that every character is equally likely.
const unbiasedLimit = 248;
// One value's characters are written here and the text is made once: a string built a character at a time allocated a
// string per character (issue 16: the three ids of a POST were 1.8 KB of its garbage). Zeroed after each value, as the
// pool is, so a secret does not stay in it; grown for a longer value.
let characters = Buffer.alloc(64);

/** `length` uniform base62 characters from the system's cryptographic source (rejection sampling). */
export function randomBase62(length: number): string {
  if (characters.length < length) characters = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const byte = nextRandomByte();
    if (byte < unbiasedLimit) {
      characters[filled] = alphabet[byte % 62] as number;
      filled += 1;
    }
  }
  const text = characters.toString('latin1', 0, length);
  characters.fill(0, 0, length);
  return text;
}
