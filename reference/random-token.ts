import { randomBase62 } from '../runtime/random-base62.js';

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
