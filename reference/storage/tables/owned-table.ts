import type { SqlExecutor } from '../sql-executor.js';
import type { ResourceTable } from '../store.js';
import { fieldValue, type OwnedTableShape, SqlParameters, storedFieldsOf } from './columns.js';
import { listPage } from './list-page.js';
import { insertRow, selectOne, updateRows } from './table-statements.js';

/** A table of resources owned by an account: every statement is scoped by `account_id`. */
const fixedFields = new Set(['id', 'accountId']);

export function ownedTable<
  Row extends { id: string; accountId: string; createdAt: string },
  Filter extends object,
>(executor: SqlExecutor, shape: OwnedTableShape<Row>): ResourceTable<Row, Filter> {
  const get = (accountId: string, id: string) =>
    selectOne(executor, shape, 't.account_id = $1 AND t.id = $2', [accountId, id]);
  return {
    insert: (row) => insertRow(executor, shape, row),
    get,
    list: (accountId, page, filter) => listPage(executor, shape, accountId, page, filter ?? {}),
    async update(accountId, id, changes) {
      const parameters = new SqlParameters();
      const condition = `t.account_id = ${parameters.add(accountId)} AND t.id = ${parameters.add(id)}`;
      const assignments = storedFieldsOf(shape)
        .filter(([field]) => !fixedFields.has(field) && fieldValue(changes, field) !== undefined)
        .map(([field, entry]) => `${entry.name} = ${parameters.add(fieldValue(changes, field), entry.kind)}`);
      if (assignments.length === 0) return get(accountId, id);
      const [updated] = await updateRows(
        executor,
        shape,
        assignments.join(', '),
        condition,
        parameters.values,
      );
      return updated ?? null;
    },
    async delete(accountId, id) {
      const deleted = await executor.query(
        `DELETE FROM ${shape.table} WHERE account_id = $1 AND id = $2 RETURNING id`,
        [accountId, id],
      );
      return deleted.length > 0;
    },
  };
}
