import { randomFillSync } from 'node:crypto';

const base62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// One CSPRNG call fills bytes for many ids (a request makes several; a call per id showed in REST profiles, issue 16).
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
// One value's characters are written here and the text is made once: a string built a character at a time allocated a
// string per character (issue 16: the three ids of a POST were 1.8 KB of its garbage). Zeroed after each value, as the
// pool is, so a secret does not stay in it; grown for a longer value.
let characters = Buffer.alloc(64);

/** Uniform base62 characters (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  if (characters.length < length) characters = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const byte = nextRandomByte();
    if (byte < 248) {
      characters[filled] = alphabet[byte % 62] as number;
      filled += 1;
    }
  }
  const text = characters.toString('latin1', 0, length);
  characters.fill(0, 0, length);
  return text;
}

interface PatternShape {
  prefix: string;
  minimum: number;
  maximum: number;
}

const shapes = new Map<string, PatternShape>();

function shapeOf(pattern: string): PatternShape {
  const known = shapes.get(pattern);
  if (known !== undefined) return known;
  const match = /^\^((?:[a-z]+_)+)\[A-Za-z0-9\]\{(\d+)(,(\d*))?\}\$$/.exec(pattern);
  if (match === null) throw new Error(`cannot generate values for the pattern ${pattern}`);
  const minimum = Number(match[2]);
  const maximum =
    match[3] === undefined ? minimum : match[4] === '' ? Number.POSITIVE_INFINITY : Number(match[4]);
  const shape = { prefix: match[1] ?? '', minimum, maximum };
  shapes.set(pattern, shape);
  return shape;
}

/**
 * A random value for an id or secret pattern of the spec, of the simple form `^<literal>[A-Za-z0-9]{n}` (also `{m,n}`
 * and `{m,}`): the literal prefix is kept and the body is `preferredLength` base62 characters within the bounds.
 * Anything else is refused, so a spec change that this cannot honour fails loudly at start-up.
 */
export function randomMatching(pattern: string, preferredLength = 24): string {
  const { prefix, minimum, maximum } = shapeOf(pattern);
  return `${prefix}${randomBase62(Math.min(Math.max(preferredLength, minimum), maximum))}`;
}

/** The literal prefix of such a pattern (`^stm_[...]` → `stm_`). */
export function patternPrefix(pattern: string): string {
  const match = /^\^([a-z]+_)/.exec(pattern);
  if (match?.[1] === undefined) throw new Error(`pattern ${pattern} has no literal prefix`);
  return match[1];
}
