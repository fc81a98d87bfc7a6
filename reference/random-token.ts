import { randomBytes } from 'node:crypto';

const base62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Uniform base62 characters (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let text = '';
  while (text.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && text.length < length) text += base62[byte % 62];
    }
  }
  return text;
}

/**
 * A random value for an id or secret pattern of the spec, of the simple form `^<literal>[A-Za-z0-9]{n}` (also `{m,n}`
 * and `{m,}`): the literal prefix is kept and the body is `preferredLength` base62 characters within the bounds.
 * Anything else is refused, so a spec change that this cannot honour fails loudly at start-up.
 */
export function randomMatching(pattern: string, preferredLength = 24): string {
  const match = /^\^((?:[a-z]+_)+)\[A-Za-z0-9\]\{(\d+)(,(\d*))?\}\$$/.exec(pattern);
  if (match === null) throw new Error(`cannot generate values for the pattern ${pattern}`);
  const minimum = Number(match[2]);
  const maximum =
    match[3] === undefined ? minimum : match[4] === '' ? Number.POSITIVE_INFINITY : Number(match[4]);
  const length = Math.min(Math.max(preferredLength, minimum), maximum);
  return `${match[1]}${randomBase62(length)}`;
}

/** The literal prefix of such a pattern (`^stm_[...]` → `stm_`). */
export function patternPrefix(pattern: string): string {
  const match = /^\^([a-z]+_)/.exec(pattern);
  if (match?.[1] === undefined) throw new Error(`pattern ${pattern} has no literal prefix`);
  return match[1];
}
