import type { AccountRow, ApiKeyRow } from '../rows.js';
import type { SqlExecutor } from '../sql-executor.js';
import type { Store } from '../store.js';
import { column, type TableShape } from './columns.js';
import { insertRow, selectOne, selectRows, updateRows } from './table-statements.js';

const accountShape: TableShape<AccountRow> = {
  table: 'accounts',
  columns: {
    id: column('id'),
    plan: column('plan'),
    defaultRegion: column('default_region'),
    createdAt: column('created_at', 'timestamp'),
  },
};

const apiKeyShape: TableShape<ApiKeyRow> = {
  table: 'api_keys',
  columns: {
    id: column('id'),
    accountId: column('account_id'),
    kind: column('kind'),
    hash: column('hash'),
    status: column('status'),
    createdAt: column('created_at', 'timestamp'),
    revokedAt: column('revoked_at', 'timestamp'),
  },
};

/** Accounts in the order they were created. */
export const accountsTable = (executor: SqlExecutor): Store['accounts'] => ({
  insert: (row) => insertRow(executor, accountShape, row),
  get: (id) => selectOne(executor, accountShape, 't.id = $1', [id]),
  list: () => selectRows(executor, accountShape, 'true', [], 'ORDER BY t.seq'),
});

export const apiKeysTable = (executor: SqlExecutor): Store['apiKeys'] => ({
  insert: (row) => insertRow(executor, apiKeyShape, row),
  findByHash: (hash) => selectOne(executor, apiKeyShape, 't.hash = $1', [hash]),
  get: (id) => selectOne(executor, apiKeyShape, 't.id = $1', [id]),
  listForAccount: (accountId) =>
    selectRows(executor, apiKeyShape, 't.account_id = $1', [accountId], 'ORDER BY t.seq'),
  async revoke(id, revokedAt) {
    // Revoking twice keeps the first revocation time.
    const [revoked] = await updateRows(
      executor,
      apiKeyShape,
      `status = 'revoked', revoked_at = coalesce(t.revoked_at, $2::timestamptz)`,
      't.id = $1',
      [id, revokedAt],
    );
    return revoked ?? null;
  },
});
