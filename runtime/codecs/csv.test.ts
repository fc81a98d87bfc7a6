import { describe, expect, it } from 'vitest';
import { CodecError, csvCodec, jsonCodec } from './index.js';

const csv = csvCodec('text/csv', { timestampColumn: 'ts', timestampField: 'ts', valuesField: 'values' });

describe('csv codec', () => {
  it('encodes the layout of the example: a header line and one value line', () => {
    expect(csv.encode({ ts: 1795253472250, values: { rpm: 1480, vibration_mm_s: 2.7 } })).toBe(
      'ts,rpm,vibration_mm_s\n1795253472250,1480,2.7\n',
    );
  });

  it.each([
    ['integers', { ts: 1795253472250, values: { rpm: 1480 } }],
    ['floats', { ts: 0, values: { a: 2.7, b: 1 / 3, c: 0.1 + 0.2 } }],
    ['negative and exponent', { ts: 5, values: { a: -12.5, b: 1e-7, c: 6.02e23, d: -1.5e-300 } }],
    ['no channel', { ts: 7, values: {} }],
  ])('round-trips %s losslessly, to what JSON gives', (_name, sample) => {
    const decoded = csv.decode(csv.encode(sample));
    expect(decoded).toStrictEqual(sample);
    expect(decoded).toStrictEqual(jsonCodec('application/json').decode(JSON.stringify(sample)));
  });

  it('keeps the sign of zero, which JSON drops', () => {
    expect(Object.is(csv.decode(csv.encode({ ts: 1, values: { a: -0 } })).values.a, -0)).toBe(true);
  });

  it.each([
    ['CRLF line ends', 'ts,a\r\n1,2\r\n'],
    ['no final line end', 'ts,a\n1,2'],
    ['exponent and sign forms', 'ts,a,b,c\n1,+2,-3E2,.5\n'],
    ['bytes', new TextEncoder().encode('ts,a\n1,2\n')],
  ])('decodes %s', (_name, text) => {
    expect(csv.decode(text)).toHaveProperty('ts', 1);
  });

  it('uses the layout names for columns and fields', () => {
    const other = csvCodec('text/csv', { timestampColumn: 'time', timestampField: 't', valuesField: 'v' });
    expect(other.encode({ t: 3, v: { x: 1 } })).toBe('time,x\n3,1\n');
    expect(other.decode('time,x\n3,1\n')).toStrictEqual({ t: 3, v: { x: 1 } });
  });

  it('keeps a column named __proto__ as a plain value', () => {
    const decoded = csv.decode('ts,__proto__\n1,2\n');
    expect(Object.getPrototypeOf(decoded.values)).toBe(Object.prototype);
    expect(Object.entries(decoded.values)).toEqual([['__proto__', 2]]);
  });

  it.each([
    ['an empty payload', ''],
    ['a header alone', 'ts,a\n'],
    ['a third line', 'ts,a\n1,2\n3,4\n'],
    ['another first column', 'time,a\n1,2\n'],
    ['fewer values than columns', 'ts,a,b\n1,2\n'],
    ['more values than columns', 'ts,a\n1,2,3\n'],
    ['an empty column name', 'ts,,b\n1,2,3\n'],
    ['a repeated column', 'ts,a,a\n1,2,3\n'],
    ['an empty cell', 'ts,a\n1,\n'],
    ['a word', 'ts,a\n1,high\n'],
    ['blanks', 'ts,a\n1, 2\n'],
    ['hexadecimal', 'ts,a\n1,0x10\n'],
    ['an infinite number', 'ts,a\n1,1e400\n'],
    ['a bad timestamp', 'ts,a\nnow,2\n'],
  ])('refuses %s as invalid-csv', (_name, text) => {
    expect(() => csv.decode(text)).toThrow(expect.objectContaining({ reason: 'invalid-csv' }));
  });

  it('refuses bytes that are not UTF-8 as invalid-utf8', () => {
    expect(() => csv.decode(Uint8Array.of(0x74, 0xff))).toThrow(
      expect.objectContaining({ reason: 'invalid-utf8' }),
    );
  });

  it.each([
    ['a name with a separator', { ts: 1, values: { 'a,b': 1 } }],
    ['a name with a line break', { ts: 1, values: { 'a\nb': 1 } }],
    ['an empty name', { ts: 1, values: { '': 1 } }],
    ['a number without CSV form', { ts: 1, values: { a: Number.NaN } }],
    ['an infinite timestamp', { ts: Number.POSITIVE_INFINITY, values: { a: 1 } }],
  ])('refuses to encode %s', (_name, sample) => {
    expect(() => csv.encode(sample)).toThrow(CodecError);
    expect(() => csv.encode(sample)).toThrow(expect.objectContaining({ reason: 'unencodable-value' }));
  });
});
