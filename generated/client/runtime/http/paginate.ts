// Copied by `npm run generate` from runtime/http/paginate.ts. Do not edit: change runtime/ and regenerate.

/** Where a cursor-paged list keeps its items and its next cursor, as the spec's pagination rules name them. */
export interface PageFields<ItemsField extends string = string> {
  itemsField: ItemsField;
  nextCursorField: string;
  /** Optional: a list without it ends on a null cursor alone. */
  hasMoreField?: string;
}

/** A page type whose items field holds `Item`s (the page schema alone may only say `unknown[]`). */
export type WithItems<Page, ItemsField extends string, Item> = Omit<Page, ItemsField> & {
  [Field in ItemsField]: Item[];
};

function field(page: unknown, name: string): unknown {
  return typeof page === 'object' && page !== null ? (page as Record<string, unknown>)[name] : undefined;
}

/** The cursor of the page after `page`, or null on the last page. */
export function nextCursor(page: unknown, fields: PageFields): string | null {
  if (fields.hasMoreField !== undefined && field(page, fields.hasMoreField) === false) return null;
  const cursor = field(page, fields.nextCursorField);
  return typeof cursor === 'string' && cursor !== '' ? cursor : null;
}

/**
 * Every page, fetched lazily: `fetchPage(undefined)` first, then `fetchPage(cursor)` with each page's next cursor.
 * A cursor that comes back twice would loop forever, so it stops the iteration with an error.
 */
export async function* pages<Page>(
  fetchPage: (cursor: string | undefined) => Promise<Page>,
  fields: PageFields,
): AsyncGenerator<Page, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield page;
    const next = nextCursor(page, fields);
    if (next === null) return;
    if (seen.has(next)) throw new Error(`the list returned the cursor "${next}" twice`);
    seen.add(next);
    cursor = next;
  }
}

/** Every item of every page, in order. */
export async function* items<Item, ItemsField extends string>(
  fetchPage: (cursor: string | undefined) => Promise<{ [Field in ItemsField]: readonly Item[] }>,
  fields: PageFields<ItemsField>,
): AsyncGenerator<Item, void, undefined> {
  for await (const page of pages(fetchPage, fields)) yield* page[fields.itemsField];
}
