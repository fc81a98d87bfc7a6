import type { DeliveryRow, WebhookRow } from '../rows.js';
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
    status: column('status'),
    createdAt: column('created_at', 'timestamp'),
  },
};

const deliveryShape: OwnedTableShape<DeliveryRow> = {
  table: 'deliveries',
  // Deliveries are listed per webhook: a cursor from another webhook's list names nothing here.
  cursorScope: ['webhookId'],
  columns: {
    id: column('id'),
    accountId: column('account_id'),
    webhookId: column('webhook_id'),
    eventId: column('event_id'),
    eventType: column('event_type'),
    status: column('status'),
    attempts: column('attempts', 'json'),
    nextAttemptAt: column('next_attempt_at', 'timestamp'),
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

export function deliveriesTable(executor: SqlExecutor): Store['deliveries'] {
  return {
    ...ownedTable<DeliveryRow, { webhookId: string }>(executor, deliveryShape),
    due: (now, limit) =>
      selectRows<DeliveryRow>(
        executor,
        deliveryShape,
        `t.status = 'pending' AND t.next_attempt_at <= $1::timestamptz`,
        [now, limit],
        'ORDER BY t.next_attempt_at, t.seq LIMIT $2::integer',
      ),
  };
}
