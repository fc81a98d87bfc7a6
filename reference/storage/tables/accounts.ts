import type { AccountRow, ApiKeyRow, KeyWithAccount } from '../rows.js';
import type { SqlExecutor } from '../sql-executor.js';
import type { Store } from '../store.js';
import { column, decodeRow, fieldsOf, selectList, type TableShape } from './columns.js';
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

/** The account's columns beside the key's, prefixed (`account.plan`) so the two rows come apart again. */
const accountColumns = fieldsOf(accountShape)
  .map(([field, entry]) => `a.${entry.name} AS "account.${field}"`)
  .join(', ');
const keyWithAccountQuery = `SELECT ${selectList(apiKeyShape)}, ${accountColumns}
  FROM api_keys AS t LEFT JOIN accounts AS a ON a.id = t.account_id WHERE t.hash = $1`;

async function findWithAccount(executor: SqlExecutor, hash: string): Promise<KeyWithAccount | null> {
  const [record] = await executor.query<Record<string, unknown>>(keyWithAccountQuery, [hash]);
  if (record === undefined) return null;
  const accountRecord: Record<string, unknown> = {};
  for (const [field] of fieldsOf(accountShape)) accountRecord[field] = record[`account.${field}`];
  return {
    key: decodeRow(apiKeyShape, record),
    account: accountRecord.id === null ? null : decodeRow(accountShape, accountRecord),
  };
}

export const apiKeysTable = (executor: SqlExecutor): Store['apiKeys'] => ({
  insert: (row) => insertRow(executor, apiKeyShape, row),
  findByHash: (hash) => selectOne(executor, apiKeyShape, 't.hash = $1', [hash]),
  findWithAccount: (hash) => findWithAccount(executor, hash),
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
