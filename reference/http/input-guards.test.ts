import { describe, expect, it } from 'vitest';
import { unfitValue } from './input-guards.js';

describe('unfitValue', () => {
  it.each([
    ['clean body', { given: { title: 'Pump 7', samples: [{ ts: 1, values: { rpm: 2 } }] }, want: null }],
    ['paired surrogates', { given: { title: 'rocket \ud83d\ude80' }, want: null }],
    ['top-level string', { given: { title: 'a\u0000b' }, want: 'title' }],
    ['nested in an array', { given: { samples: [{ ts: 1 }, { note: '\u0000' }] }, want: 'samples.1.note' }],
    ['in a key', { given: { metadata: { 'bad\u0000key': 'x' } }, want: 'metadata.bad\u0000key' }],
    ['the whole value', { given: '\u0000', want: '' }],
    ['not a string', { given: 42, want: null }],
    // Issue 12, item 5: lone surrogates and numbers that overflowed.
    ['lone high surrogate', { given: { metadata: { site: 'a\ud800' } }, want: 'metadata.site' }],
    ['lone low surrogate', { given: { title: '\udc00b' }, want: 'title' }],
    ['surrogate in a key', { given: { metadata: { '\udfff': 'x' } }, want: 'metadata.\udfff' }],
    ['overflowed number', { given: { samples: [{ ts: Number.POSITIVE_INFINITY }] }, want: 'samples.0.ts' }],
    ['negative overflow', { given: { expiresIn: Number.NEGATIVE_INFINITY }, want: 'expiresIn' }],
  ])('%s', (_name, { given, want }) => {
    expect(unfitValue(given)?.path ?? null).toBe(want);
  });
});
