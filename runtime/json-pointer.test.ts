import { describe, expect, it } from 'vitest';
import { formatJsonPointer, parseJsonPointer, resolveJsonPointer } from './json-pointer.js';

const document = { paths: { '/streams': { post: { tags: ['Streams'] } } }, 'a~b': 1 };

describe('json pointers', () => {
  it.each([
    ['#/paths/~1streams/post/tags/0', 'Streams'],
    ['/a~0b', 1],
    ['#', document],
    ['#/paths/~1streams/get', undefined],
    ['#/paths/~1streams/post/tags/01', undefined],
    ['#/paths/~1streams/post/tags/1', undefined],
  ])('resolves %s', (pointer, want) => {
    expect(resolveJsonPointer(document, pointer)).toEqual(want);
  });

  it('round-trips tokens with escapes', () => {
    const tokens = ['paths', '/reports/{reportId}', 'a~b'];
    expect(parseJsonPointer(formatJsonPointer(tokens))).toEqual(tokens);
  });

  it('refuses a pointer without a leading slash', () => {
    expect(() => parseJsonPointer('paths')).toThrow(/must start/);
  });
});
