import type { ClaimedDelivery, DeliveryRow, EventRow } from '../rows.js';
import type { SqlExecutor } from '../sql-executor.js';
import type { ClaimRequest, Store } from '../store.js';
import type { OwnedTableShape } from './columns.js';
import { column, decodeRow, selectList } from './columns.js';
import { ownedTable } from './owned-table.js';
import { selectRows, updateRows } from './table-statements.js';

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

// How many of the oldest due deliveries one claim looks at: bounds the per-webhook ranking when a backlog builds up.
const claimWindow = 5000;

/**
 * Leases due deliveries of active webhooks, oldest first, at most `perWebhook` in flight per webhook counting the
 * ones the caller already holds. `SKIP LOCKED` lets several nodes claim at once without waiting on each other; the
 * lease makes a delivery invisible to other claims until it runs out (a node that dies loses its leases then).
 */
const claimStatement = `
WITH busy AS (SELECT * FROM unnest($4::text[], $5::integer[]) AS b(webhook_id, count)),
candidates AS (
  SELECT d.id, row_number() OVER (PARTITION BY d.webhook_id ORDER BY d.next_attempt_at, d.seq)
           + coalesce(b.count, 0) AS rank
  FROM (SELECT id, webhook_id, next_attempt_at, seq FROM deliveries
        WHERE status = 'pending' AND next_attempt_at <= $1::timestamptz
          AND (claimed_until IS NULL OR claimed_until <= $1::timestamptz)
        ORDER BY next_attempt_at, seq LIMIT ${claimWindow}) AS d
  JOIN webhooks w ON w.id = d.webhook_id AND w.status = 'active'
  LEFT JOIN busy b ON b.webhook_id = d.webhook_id
),
picked AS (
  SELECT d.id FROM deliveries d
  WHERE d.id IN (SELECT id FROM candidates WHERE rank <= $6) AND d.status = 'pending'
    AND (d.claimed_until IS NULL OR d.claimed_until <= $1::timestamptz)
  ORDER BY d.next_attempt_at, d.seq LIMIT $3::integer
  FOR UPDATE SKIP LOCKED
),
claimed AS (
  UPDATE deliveries AS u SET claimed_until = $2::timestamptz, claim_token = $7
  FROM picked WHERE u.id = picked.id
  RETURNING u.*
)
SELECT ${selectList(deliveryShape)}, t.retry_base AS "retryBase",
  w.url AS "webhookUrl", w.signing_secret AS "signingSecret",
  w.previous_signing_secret AS "previousSigningSecret", w.previous_secret_expires_at AS "previousSecretExpiresAt",
  e.created AS "eventCreated", e.livemode AS "eventLivemode", e.data AS "eventData"
FROM claimed AS t JOIN webhooks w ON w.id = t.webhook_id JOIN events e ON e.id = t.event_id
ORDER BY t.next_attempt_at, t.seq`;

function claimedDelivery(record: Record<string, unknown>): ClaimedDelivery {
  const delivery = decodeRow<DeliveryRow>(deliveryShape, record);
  const expires = record.previousSecretExpiresAt;
  const data = record.eventData;
  const event: EventRow = {
    id: delivery.eventId,
    accountId: delivery.accountId,
    type: delivery.eventType,
    created: Number(record.eventCreated),
    livemode: Boolean(record.eventLivemode),
    data: (typeof data === 'string' ? JSON.parse(data) : data) as Record<string, unknown>,
  };
  return {
    delivery,
    retryBase: Number(record.retryBase),
    webhook: {
      url: String(record.webhookUrl),
      signingSecret: String(record.signingSecret),
      previousSigningSecret: (record.previousSigningSecret as string | null) ?? null,
      previousSecretExpiresAt:
        expires === null || expires === undefined ? null : new Date(expires as string | Date).toISOString(),
    },
    event,
  };
}

async function claim(executor: SqlExecutor, request: ClaimRequest): Promise<ClaimedDelivery[]> {
  const busy = [...request.inFlightPerWebhook];
  const records = await executor.query<Record<string, unknown>>(claimStatement, [
    request.now,
    request.leaseUntil,
    request.limit,
    busy.map(([webhookId]) => webhookId),
    busy.map(([, count]) => count),
    request.perWebhook,
    request.claimToken,
  ]);
  return records.map(claimedDelivery);
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
    claim: (request) => claim(executor, request),
    async settle(outcomes) {
      if (outcomes.length === 0) return [];
      const rows = await executor.query<{ id: string }>(
        `UPDATE deliveries AS t SET status = x.status, attempts = t.attempts || jsonb_build_array(x.attempt),
           next_attempt_at = x.next_attempt_at, claimed_until = NULL, claim_token = NULL
         FROM jsonb_to_recordset($1::jsonb)
           AS x(id text, claim_token text, status text, attempt jsonb, next_attempt_at timestamptz)
         WHERE t.id = x.id AND t.claim_token = x.claim_token
         RETURNING t.id`,
        [
          JSON.stringify(
            outcomes.map((outcome) => ({
              id: outcome.id,
              claim_token: outcome.claimToken,
              status: outcome.status,
              attempt: outcome.attempt,
              next_attempt_at: outcome.nextAttemptAt,
            })),
          ),
        ],
      );
      return rows.map((row) => row.id);
    },
    async release(claimToken, ids) {
      await executor.query(
        `UPDATE deliveries SET claimed_until = NULL, claim_token = NULL
         WHERE claim_token IS NOT NULL AND ($1::text IS NULL OR claim_token = $1)
           AND ($2::text[] IS NULL OR id = ANY($2::text[]))`,
        [claimToken, ids],
      );
    },
    async requeue(accountId, webhookId, id, at) {
      const [row] = await updateRows<DeliveryRow>(
        executor,
        deliveryShape,
        `status = 'pending', next_attempt_at = $4::timestamptz, retry_base = jsonb_array_length(t.attempts),
         claimed_until = NULL, claim_token = NULL`,
        't.account_id = $1 AND t.webhook_id = $2 AND t.id = $3',
        [accountId, webhookId, id, at],
      );
      return row ?? null;
    },
  };
}
