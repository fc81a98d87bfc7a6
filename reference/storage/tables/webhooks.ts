import type { WebhookRow } from '../rows.js';
import type { SqlExecutor } from '../sql-executor.js';
import type { Store } from '../store.js';
import type { OwnedTableShape } from './columns.js';
import { column } from './columns.js';
import { ownedTable } from './owned-table.js';
import { selectRows } from './table-statements.js';

const webhookShape: OwnedTableShape<WebhookRow> = {
  table: 'webhooks',
  cursorScope: [],
  columns: {
    id: column('id'),
    accountId: column('account_id'),
    url: column('url'),
    events: column('events', 'json'),
    description: column('description'),
    signingSecret: column('signing_secret'),
    previousSigningSecret: column('previous_signing_secret'),
    previousSecretExpiresAt: column('previous_secret_expires_at', 'timestamp'),
    status: column('status'),
    createdAt: column('created_at', 'timestamp'),
  },
};

export function webhooksTable(executor: SqlExecutor): Store['webhooks'] {
  return {
    ...ownedTable<WebhookRow, Record<string, never>>(executor, webhookShape),
    subscribedTo: (accountId, eventType) =>
      selectRows<WebhookRow>(
        executor,
        webhookShape,
        `t.account_id = $1 AND t.status = 'active' AND t.events @> jsonb_build_array($2::text)`,
        [accountId, eventType],
        'ORDER BY t.seq',
      ),
    async count(accountId) {
      const [row] = await executor.query<{ count: unknown }>(
        'SELECT count(*) AS count FROM webhooks WHERE account_id = $1',
        [accountId],
      );
      return Number(row?.count ?? 0);
    },
  };
}
