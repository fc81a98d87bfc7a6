import type { SqlExecutor } from '../sql-executor.js';
import { type Page, type PageRequest, pageLimit } from '../store.js';
import { type Column, fieldsOf, type OwnedTableShape, SqlParameters } from './columns.js';
import { selectRows } from './table-statements.js';

interface Equality {
  field: string;
  column: Column;
  value: unknown;
}

/**
 * One page of an account's rows, newest first: by `createdAt`, ties by insertion sequence. Not by sequence alone:
 * with several nodes (or one node's pool) writing at once, a row stamped earlier may be inserted later, and the list
 * must agree with the timestamps it shows (ADR 0023). `after` returns rows older than the cursor row,
 * `before` rows newer than it (still newest first, the ones nearest the cursor); with both, the rows between them.
 * `hasMore` says whether more rows lie beyond the page in the direction paged. `null` when a cursor is not a row of
 * this account (and of the shape's cursor scope).
 */
export async function listPage<Row extends { createdAt: string }>(
  executor: SqlExecutor,
  shape: OwnedTableShape<Row>,
  accountId: string,
  page: PageRequest,
  filter: object,
): Promise<Page<Row> | null> {
  const equalities = [
    { field: 'accountId', column: { name: 'account_id', kind: 'text' } as const, value: accountId },
    ...filterEqualities(shape, filter),
  ];
  const scope = equalities.filter(({ field }) => field === 'accountId' || shape.cursorScope.includes(field));
  const created = `t.${shape.columns.createdAt.name}`;
  const parameters = new SqlParameters();
  const conditions = equalities.map((equality) => renderEquality(equality, parameters));
  for (const [cursor, comparison] of [
    [page.after, '<'],
    [page.before, '>'],
  ] as const) {
    if (cursor === undefined) continue;
    const position = await cursorPosition(executor, shape, scope, cursor);
    if (position === null) return null;
    conditions.push(
      `(${created}, t.seq) ${comparison} (${parameters.add(position.createdAt, 'timestamp')}, ${parameters.add(position.seq)}::bigint)`,
    );
  }
  const backwards = page.after === undefined && page.before !== undefined;
  const direction = backwards ? 'ASC' : 'DESC';
  const pageSize = pageLimit(page);
  const limit = parameters.add(pageSize + 1);
  const rows = await selectRows(
    executor,
    shape,
    conditions.join(' AND '),
    parameters.values,
    `ORDER BY ${created} ${direction}, t.seq ${direction} LIMIT ${limit}::integer`,
  );
  const items = rows.slice(0, pageSize);
  return { items: backwards ? items.reverse() : items, hasMore: rows.length > pageSize };
}

function filterEqualities<Row>(shape: OwnedTableShape<Row>, filter: object): Equality[] {
  const columns = new Map(fieldsOf(shape));
  return Object.entries(filter)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => {
      const column = columns.get(field);
      if (!column) throw new Error(`${shape.table} has no field ${field} to filter on`);
      return { field, column, value };
    });
}

function renderEquality(equality: Equality, parameters: SqlParameters): string {
  return `t.${equality.column.name} = ${parameters.add(equality.value, equality.column.kind)}`;
}

/**
 * The cursor row's place in the order, or null when no row of the scope has that id. The timestamp comes back as
 * PostgreSQL's text, which casts back to the same instant to the microsecond (a JS Date would keep milliseconds).
 */
async function cursorPosition<Row extends { createdAt: string }>(
  executor: SqlExecutor,
  shape: OwnedTableShape<Row>,
  scope: readonly Equality[],
  cursor: string,
): Promise<{ createdAt: string; seq: unknown } | null> {
  const parameters = new SqlParameters();
  const conditions = scope.map((equality) => renderEquality(equality, parameters));
  conditions.push(`t.id = ${parameters.add(cursor)}`);
  const [row] = await executor.query<{ createdAt: string; seq: unknown }>(
    `SELECT t.${shape.columns.createdAt.name}::text AS "createdAt", t.seq FROM ${shape.table} AS t WHERE ${conditions.join(' AND ')}`,
    parameters.values,
  );
  return row ?? null;
}
