import { describe, expect, it } from 'vitest';
import { items, nextCursor, pages } from './paginate.js';

const fields = { itemsField: 'data', nextCursorField: 'nextCursor', hasMoreField: 'hasMore' } as const;
const book: Record<string, { data: number[]; hasMore: boolean; nextCursor: string | null }> = {
  first: { data: [1, 2], hasMore: true, nextCursor: 'b' },
  b: { data: [3, 4], hasMore: true, nextCursor: 'c' },
  c: { data: [5], hasMore: false, nextCursor: null },
};

async function collect<Item>(iterable: AsyncIterable<Item>): Promise<Item[]> {
  const all: Item[] = [];
  for await (const item of iterable) all.push(item);
  return all;
}

describe('pagination', () => {
  it('follows next cursors until the last page', async () => {
    const asked: Array<string | undefined> = [];
    const fetchPage = async (cursor: string | undefined) => {
      asked.push(cursor);
      return book[cursor ?? 'first'] ?? { data: [], hasMore: false, nextCursor: null };
    };
    expect(await collect(items(fetchPage, fields))).toEqual([1, 2, 3, 4, 5]);
    expect(asked).toEqual([undefined, 'b', 'c']);
  });

  it('ends on hasMore false even when a cursor is given', () => {
    expect(nextCursor({ data: [], hasMore: false, nextCursor: 'x' }, fields)).toBeNull();
    expect(
      nextCursor({ data: [], nextCursor: 'x' }, { itemsField: 'data', nextCursorField: 'nextCursor' }),
    ).toBe('x');
  });

  it('refuses a cursor that comes back twice instead of looping', async () => {
    const loop = async () => ({ data: [1], hasMore: true, nextCursor: 'same' });
    await expect(collect(pages(loop, fields))).rejects.toThrow('twice');
  });
});
