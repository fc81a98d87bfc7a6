/**
 * How a number in a query, path or header is written when the spec reads such numbers as JSON writes them
 * (`x-parameter-values.numbers: json`). Validators that coerce strings would otherwise take `1e2`, `0x10`, ` 5`, `+5`
 * and `5.0` for numbers: a typo then pages differently than asked instead of being refused.
 */

/** JSON's integer: digits with no leading zero, an optional minus; no plus, spaces, fraction, exponent or base. */
export const jsonIntegerPattern = '^-?(0|[1-9][0-9]*)$';

/** JSON's number: a JSON integer with an optional fraction and exponent. */
export const jsonNumberPattern = '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$';

/** What a value failing one of these patterns should be, in words; undefined for any other pattern. */
export function numberFormRequirement(pattern: unknown): string | undefined {
  if (pattern === jsonIntegerPattern)
    return 'must be an integer written in decimal digits, as JSON writes it';
  if (pattern === jsonNumberPattern) return 'must be a number written as JSON writes it';
  return undefined;
}
