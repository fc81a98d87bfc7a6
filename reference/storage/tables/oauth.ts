import type { AuthorizationCodeRow, OAuthClientRow, RefreshTokenRow } from '../rows.js';
import type { SqlExecutor } from '../sql-executor.js';
import type { Store } from '../store.js';
import { column, type TableShape } from './columns.js';
import { insertRow, selectOne, updateRows } from './table-statements.js';

const clientShape: TableShape<OAuthClientRow> = {
  table: 'oauth_clients',
  columns: {
    id: column('id'),
    accountId: column('account_id'),
    name: column('name'),
    secretHash: column('secret_hash'),
    redirectUris: column('redirect_uris', 'json'),
    createdAt: column('created_at', 'timestamp'),
  },
};

const codeShape: TableShape<AuthorizationCodeRow> = {
  table: 'authorization_codes',
  columns: {
    codeHash: column('code_hash'),
    clientId: column('client_id'),
    accountId: column('account_id'),
    redirectUri: column('redirect_uri'),
    scope: column('scope'),
    codeChallenge: column('code_challenge'),
    expiresAt: column('expires_at', 'timestamp'),
    usedAt: column('used_at', 'timestamp'),
  },
};

const refreshShape: TableShape<RefreshTokenRow> = {
  table: 'refresh_tokens',
  columns: {
    tokenHash: column('token_hash'),
    familyId: column('family_id'),
    clientId: column('client_id'),
    accountId: column('account_id'),
    scope: column('scope'),
    expiresAt: column('expires_at', 'timestamp'),
    usedAt: column('used_at', 'timestamp'),
    revokedAt: column('revoked_at', 'timestamp'),
  },
};

export const oauthClientsTable = (executor: SqlExecutor): Store['oauthClients'] => ({
  insert: (row) => insertRow(executor, clientShape, row),
  get: (id) => selectOne(executor, clientShape, 't.id = $1', [id]),
});

// Single use rests on the row lock: of two racing UPDATEs the second re-reads the row after the first commits and
// finds `used_at` set (PostgreSQL's READ COMMITTED rechecks the WHERE clause); PGlite runs them one after the other.
export const authorizationCodesTable = (executor: SqlExecutor): Store['authorizationCodes'] => ({
  insert: (row) => insertRow(executor, codeShape, row),
  async consume(codeHash, usedAt) {
    const [consumed] = await updateRows(
      executor,
      codeShape,
      'used_at = $2::timestamptz',
      't.code_hash = $1 AND t.used_at IS NULL',
      [codeHash, usedAt],
    );
    return consumed ?? null;
  },
});

export const refreshTokensTable = (executor: SqlExecutor): Store['refreshTokens'] => ({
  insert: (row) => insertRow(executor, refreshShape, row),
  get: (tokenHash) => selectOne(executor, refreshShape, 't.token_hash = $1', [tokenHash]),
  async markUsed(tokenHash, usedAt) {
    const condition = 't.token_hash = $1 AND t.used_at IS NULL AND t.revoked_at IS NULL';
    const marked = await updateRows(executor, refreshShape, 'used_at = $2::timestamptz', condition, [
      tokenHash,
      usedAt,
    ]);
    return marked.length > 0;
  },
  async revokeFamily(familyId, revokedAt) {
    await executor.query(
      'UPDATE refresh_tokens SET revoked_at = $2::timestamptz WHERE family_id = $1 AND revoked_at IS NULL',
      [familyId, revokedAt],
    );
  },
});
