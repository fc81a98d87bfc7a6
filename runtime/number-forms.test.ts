import { describe, expect, it } from 'vitest';
import { jsonIntegerPattern, jsonNumberPattern } from './number-forms.js';

// Each written form against what JSON.parse makes of it: the patterns must accept exactly JSON's numbers.
const forms = [
  '0',
  '-0',
  '5',
  '-17',
  '100',
  '05',
  '+5',
  ' 5',
  '5 ',
  '1e2',
  '0x10',
  '5.0',
  '.5',
  '5.',
  '-',
  '',
  '1E+2',
  '2.5e-3',
  'Infinity',
  'NaN',
  '1_000',
];

function jsonKind(text: string): 'integer' | 'number' | 'none' {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'number' || text.trim() !== text) return 'none';
    return /^-?[0-9]+$/.test(text) ? 'integer' : 'number';
  } catch {
    return 'none';
  }
}

describe('number forms of x-parameter-values.numbers: json', () => {
  it.each(forms)('%j is an integer or number exactly when JSON writes it so', (text) => {
    const kind = jsonKind(text);
    expect(new RegExp(jsonIntegerPattern).test(text)).toBe(kind === 'integer');
    expect(new RegExp(jsonNumberPattern).test(text)).toBe(kind !== 'none');
  });
});
