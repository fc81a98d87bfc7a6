import { describe, expect, it } from 'vitest';
import { CodecError, type CodecErrorReason, codecKind, jsonCodec, msgpackCodec, textCodec } from './index.js';

type Sample = { ts: number; values: Record<string, number> };
const samples: Array<[string, Sample]> = [
  ['integers', { ts: 1795253472250, values: { rpm: 1480 } }],
  ['floats', { ts: 0, values: { vibration_mm_s: 2.7, third: 1 / 3 } }],
  ['negative and exponent', { ts: 1, values: { a: -12.5, b: 1e-7, c: 6.02e23, d: -1.5e300 } }],
  ['extremes', { ts: Number.MAX_SAFE_INTEGER, values: { min: Number.MIN_VALUE, max: Number.MAX_VALUE } }],
];
const json = jsonCodec<Sample>('application/json');
const msgpack = msgpackCodec<Sample>('application/vnd.msgpack');

function reasonOf(action: () => unknown): CodecErrorReason | 'no error' {
  try {
    action();
  } catch (error) {
    if (error instanceof CodecError) return error.reason;
    throw error;
  }
  return 'no error';
}

describe('json and msgpack codecs', () => {
  it.each(samples)('round-trip %s losslessly', (_name, sample) => {
    expect(json.decode(json.encode(sample))).toStrictEqual(sample);
    expect(msgpack.decode(msgpack.encode(sample))).toStrictEqual(sample);
    expect(json.decode(new TextEncoder().encode(JSON.stringify(sample)))).toStrictEqual(sample);
  });

  it('say which are binary', () => {
    expect([json.binary, msgpack.binary, textCodec('text/plain').binary]).toEqual([false, true, false]);
  });

  it.each<[string, () => unknown, CodecErrorReason]>([
    ['json: broken text', () => json.decode('{"ts":'), 'invalid-json'],
    ['json: bytes that are not UTF-8', () => json.decode(Uint8Array.of(0x7b, 0xff, 0x7d)), 'invalid-utf8'],
    [
      'json: a value without JSON form',
      () => jsonCodec<undefined>('application/json').encode(undefined),
      'unencodable-value',
    ],
    ['msgpack: text', () => msgpack.decode('{}'), 'invalid-msgpack'],
    [
      'msgpack: truncated',
      () => msgpack.decode(msgpack.encode(samples[0]?.[1] as Sample).slice(0, 5)),
      'invalid-msgpack',
    ],
    ['msgpack: trailing bytes', () => msgpack.decode(Uint8Array.of(0xc0, 0xc0)), 'invalid-msgpack'],
    ['msgpack: reserved type byte', () => msgpack.decode(Uint8Array.of(0xc1)), 'invalid-msgpack'],
    [
      'msgpack: a value without form',
      () => msgpackCodec<symbol>('application/msgpack').encode(Symbol('x')),
      'unencodable-value',
    ],
    [
      'text: bytes that are not UTF-8',
      () => textCodec('text/plain').decode(Uint8Array.of(0xc3)),
      'invalid-utf8',
    ],
  ])('%s', (_name, action, reason) => {
    expect(reasonOf(action)).toBe(reason);
  });

  it('name the content type in the error', () => {
    expect(() => json.decode('nope')).toThrow(/^application\/json: /);
  });
});

describe('codecKind', () => {
  it.each([
    ['application/json', 'json'],
    ['Application/JSON; charset=utf-8', 'json'],
    ['application/cloudevents+json', 'json'],
    ['application/vnd.msgpack', 'msgpack'],
    ['application/msgpack', 'msgpack'],
    ['application/x-msgpack', 'msgpack'],
    ['text/csv', 'csv'],
    ['text/plain', 'text'],
    ['application/octet-stream', null],
    ['application/xml', null],
  ])('%s → %s', (contentType, kind) => {
    expect(codecKind(contentType)).toBe(kind);
  });
});
