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
];

describe('JSON structure check', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    const problem = jsonStructureProblem(given, 4);
    if (want === null) expect(problem).toBeNull();
    else expect(problem).toMatch(want);
  });
});
