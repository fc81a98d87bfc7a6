import { describe, expect, it } from 'vitest';
import { nulCharacterPath } from './input-guards.js';

describe('nulCharacterPath', () => {
  it.each([
    ['clean body', { given: { title: 'Pump 7', samples: [{ ts: 1, values: { rpm: 2 } }] }, want: null }],
    ['top-level string', { given: { title: 'a\u0000b' }, want: 'title' }],
    ['nested in an array', { given: { samples: [{ ts: 1 }, { note: '\u0000' }] }, want: 'samples.1.note' }],
    ['in a key', { given: { metadata: { 'bad\u0000key': 'x' } }, want: 'metadata.bad\u0000key' }],
    ['the whole value', { given: '\u0000', want: '' }],
    ['not a string', { given: 42, want: null }],
  ])('%s', (_name, { given, want }) => {
    expect(nulCharacterPath(given)).toBe(want);
  });
});
