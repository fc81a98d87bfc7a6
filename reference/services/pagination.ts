import { problem } from '../problems.js';
import type { Page, PageRequest } from '../storage/store.js';

/** A list query after validation: the validators have bounded `limit`; the spec's default fills it when absent. */
export interface ListQuery {
  limit?: number;
  after?: string;
  before?: string;
}

/** The list envelope of the spec; `nextCursor` continues in the direction paged, null when no page follows. */
export interface ListEnvelope<Item> {
  object: 'list';
  data: Item[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * `after` and `before` exclude each other; `defaultLimit` is the operation's (`parameterDefaults`). Built field by
 * field rather than by spreading the query: a list request runs it, and spreads with added fields copy slowly.
 */
export function pageRequest(query: ListQuery, defaultLimit: number): PageRequest {
  if (query.after !== undefined && query.before !== undefined) {
    throw problem('parameters_exclusive', 'Give either after or before, not both.', 'before');
  }
  const request: PageRequest = { limit: query.limit ?? defaultLimit };
  // Stryker disable next-line ConditionalExpression: equivalent, a cursor set to undefined is an absent one to every store (hides the killed always-false mutant with it)
  if (query.after !== undefined) request.after = query.after;
  // Stryker disable next-line ConditionalExpression: equivalent, as above
  if (query.before !== undefined) request.before = query.before;
  return request;
}

export function listEnvelope<Row, Item>(
  page: Page<Row> | null,
  request: PageRequest,
  toItem: (row: Row) => Item,
  idOf: (row: Row) => string,
): ListEnvelope<Item> {
  if (page === null) {
    const param = request.after === undefined ? 'before' : 'after';
    throw problem('cursor_invalid', `${param} is not the id of an item of this list.`, param);
  }
  const edge = request.before === undefined ? page.items.at(-1) : page.items[0];
  return {
    object: 'list',
    data: page.items.map(toItem),
    hasMore: page.hasMore,
    // Stryker disable next-line ConditionalExpression: equivalent, a page with more after it holds an item (every store refuses a limit below one); hides the killed mutants of the whole condition with it
    nextCursor: page.hasMore && edge !== undefined ? idOf(edge) : null,
  };
}
