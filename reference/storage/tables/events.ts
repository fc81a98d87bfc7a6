import type { EventRow } from '../rows.js';
import type { SqlExecutor } from '../sql-executor.js';
import type { Store } from '../store.js';
import { column, type TableShape } from './columns.js';
import { insertRow, selectOne } from './table-statements.js';

const eventShape: TableShape<EventRow> = {
  table: 'events',
  columns: {
    id: column('id'),
    accountId: column('account_id'),
    type: column('type'),
    created: column('created', 'integer'),
    livemode: column('livemode', 'boolean'),
    data: column('data', 'json'),
  },
};

export const eventsTable = (executor: SqlExecutor): Store['events'] => ({
  insert: (row) => insertRow(executor, eventShape, row),
  get: (accountId, id) => selectOne(executor, eventShape, 't.account_id = $1 AND t.id = $2', [accountId, id]),
});
