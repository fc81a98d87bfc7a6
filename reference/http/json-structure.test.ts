// Issue 12, item 5: duplicate keys and deep nesting are refused before parsing.
import { describe, expect, it } from 'vitest';
import { jsonStructureProblem } from './json-structure.js';

const cases: Array<[string, { given: string; want: RegExp | null }]> = [
  ['flat object', { given: '{"a":1,"b":"x"}', want: null }],
  ['same key in sibling objects', { given: '[{"a":1},{"a":2}]', want: null }],
  ['same key at two depths', { given: '{"a":{"a":1}}', want: null }],
  ['key-like string value', { given: '{"a":"b","b":"a"}', want: null }],
  ['escaped quote in a key', { given: '{"a\\"":1,"a":2}', want: null }],
  ['duplicate key', { given: '{"title":"a","title":"b"}', want: /"title" appears twice/ }],
  ['duplicate key after a nested object', { given: '{"a":{"x":1},"a":2}', want: /"a" appears twice/ }],
  ['duplicate key spelt with an escape', { given: '{"a":1,"\\u0061":2}', want: /"a" appears twice/ }],
  ['depth at the limit', { given: `${'['.repeat(4)}${']'.repeat(4)}`, want: null }],
  ['depth over the limit', { given: `${'{"a":'.repeat(5)}1${'}'.repeat(5)}`, want: /deeper than 4/ }],
  ['brackets inside strings', { given: '{"a":"[[[[[[[[{{{{"}', want: null }],
  [
    'control character in a repeated key (left to the parser)',
    { given: '{"a\u0001":1,"a\u0001":2}', want: null },
  ],
  ['malformed (left to the parser)', { given: '{"a":"unterminated', want: null }],
  // Past 16 keys an object's keys move from an array to a Set: a repeat must be found on both sides of that move.
  ['forty distinct keys', { given: manyKeys(40), want: null }],
  ['the first key again as the fortieth', { given: manyKeys(39, 'k0'), want: /"k0" appears twice/ }],
  ['the seventeenth key again as the fortieth', { given: manyKeys(39, 'k16'), want: /"k16" appears twice/ }],
  ['the thirtieth key again as the fortieth', { given: manyKeys(39, 'k29'), want: /"k29" appears twice/ }],
];

/** An object with keys k0… k(count − 1), then `repeated` once more when given. */
function manyKeys(count: number, repeated?: string): string {
  const keys = Array.from({ length: count }, (_, index) => `k${index}`);
  if (repeated !== undefined) keys.push(repeated);
  return `{${keys.map((key, index) => `"${key}":${index}`).join(',')}}`;
}

describe('JSON structure check', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    const problem = jsonStructureProblem(given, 4);
    if (want === null) expect(problem).toBeNull();
    else expect(problem).toMatch(want);
  });
});
