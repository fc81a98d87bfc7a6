import type { SqlExecutor } from '../sql-executor.js';
import {
  decodeRow,
  fieldValue,
  SqlParameters,
  selectList,
  storedFieldsOf,
  type TableShape,
} from './columns.js';

/** Inserts a row and returns it as stored (timestamps normalised, derived fields computed). */
export async function insertRow<Row extends object>(
  executor: SqlExecutor,
  shape: TableShape<Row>,
  row: Row,
): Promise<Row> {
  const parameters = new SqlParameters();
  const stored = storedFieldsOf(shape);
  const placeholders = stored.map(([field, entry]) => parameters.add(fieldValue(row, field), entry.kind));
  const [inserted] = await executor.query<Record<string, unknown>>(
    `INSERT INTO ${shape.table} AS t (${stored.map(([, entry]) => entry.name).join(', ')})
     VALUES (${placeholders.join(', ')})
     RETURNING ${selectList(shape)}`,
    parameters.values,
  );
  if (!inserted) throw new Error(`INSERT INTO ${shape.table} returned no row`);
  return decodeRow(shape, inserted);
}

/** Rows matching `condition` (SQL over `t`, with `$n` placeholders for `params`), followed by `suffix`. */
export async function selectRows<Row>(
  executor: SqlExecutor,
  shape: TableShape<Row>,
  condition: string,
  params: readonly unknown[],
  suffix = '',
): Promise<Row[]> {
  const records = await executor.query<Record<string, unknown>>(
    `SELECT ${selectList(shape)} FROM ${shape.table} AS t WHERE ${condition} ${suffix}`,
    params,
  );
  return records.map((record) => decodeRow(shape, record));
}

export async function selectOne<Row>(
  executor: SqlExecutor,
  shape: TableShape<Row>,
  condition: string,
  params: readonly unknown[],
): Promise<Row | null> {
  const [row] = await selectRows(executor, shape, condition, params);
  return row ?? null;
}

/** Runs `UPDATE … AS t SET <assignments> WHERE <condition> RETURNING <row>`, returning the rows changed. */
export async function updateRows<Row>(
  executor: SqlExecutor,
  shape: TableShape<Row>,
  assignments: string,
  condition: string,
  params: readonly unknown[],
): Promise<Row[]> {
  const records = await executor.query<Record<string, unknown>>(
    `UPDATE ${shape.table} AS t SET ${assignments} WHERE ${condition} RETURNING ${selectList(shape)}`,
    params,
  );
  return records.map((record) => decodeRow(shape, record));
}
