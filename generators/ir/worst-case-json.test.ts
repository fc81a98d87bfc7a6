import { describe, expect, it } from 'vitest';
import type { JsonSchema } from './model.js';
import { worstCaseJsonBytes } from './worst-case-json.js';

const named = new Map<string, JsonSchema>([
  ['Channel', { type: 'string', maxLength: 4, pattern: '^[a-z]{1,4}$' }],
]);

const cases: Array<[string, { given: JsonSchema; want: number }]> = [
  ['null', { given: { type: 'null' }, want: 4 }],
  ['boolean', { given: { type: 'boolean' }, want: 5 }],
  ['number', { given: { type: 'number' }, want: '-1.7976931348623157e+308'.length }],
  ['number (non-negative)', { given: { type: 'number', minimum: 0 }, want: 23 }],
  ['integer (bounded)', { given: { type: 'integer', minimum: -5, maximum: 1000 }, want: 4 }],
  ['integer (unbounded)', { given: { type: 'integer', minimum: 0 }, want: 23 }],
  ['string (any character)', { given: { type: 'string', maxLength: 3 }, want: 2 + 3 * 6 }],
  ['string (ASCII classes)', { given: { $ref: '#/components/schemas/Channel' }, want: 6 }],
  ['string (unbounded)', { given: { type: 'string' }, want: Number.POSITIVE_INFINITY }],
  ['const', { given: { const: 'list' }, want: 6 }],
  ['enum', { given: { enum: ['a', 'bcd'] }, want: 5 }],
  ['nullable', { given: { type: ['string', 'null'], maxLength: 1 }, want: 8 }],
  ['array', { given: { type: 'array', maxItems: 3, items: { type: 'boolean' } }, want: 2 + 15 + 2 }],
  [
    'array (unbounded)',
    { given: { type: 'array', items: { type: 'null' } }, want: Number.POSITIVE_INFINITY },
  ],
  [
    'object (closed)',
    {
      given: {
        type: 'object',
        additionalProperties: false,
        properties: { a: { type: 'null' }, bb: { type: 'boolean' } },
      },
      want: '{"a":null,"bb":false}'.length,
    },
  ],
  [
    'object (map)',
    {
      given: {
        type: 'object',
        maxProperties: 2,
        propertyNames: { $ref: '#/components/schemas/Channel' },
        additionalProperties: { type: 'integer', minimum: 0, maximum: 99 },
      },
      want: '{"abcd":99,"efgh":99}'.length,
    },
  ],
  ['object (open)', { given: { type: 'object' }, want: Number.POSITIVE_INFINITY }],
  ['oneOf', { given: { oneOf: [{ type: 'null' }, { type: 'boolean' }] }, want: 5 }],
];

describe('worstCaseJsonBytes', () => {
  for (const [name, { given, want }] of cases)
    it(name, () => {
      expect(worstCaseJsonBytes(given, named)).toBe(want);
    });
});
