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

// How many of the oldest due deliveries one claim ranks (at least; twice the claim's limit when that is more).
// Webhooks already at their cap are left out before this window, so one webhook's backlog cannot fill it and starve
// the others.
const claimWindow = 400;

/**
 * The oldest due, unleased deliveries of webhooks not at their cap: retries (attempted before) or first attempts.
 * Two scans, each served by its own partial index, so that due retries are found however long the backlog of first
 * attempts is.
 */
const dueScan = (retries: 'true' | 'false', capped: string, held: string | null) => `(
  SELECT id, webhook_id, next_attempt_at, seq, ${retries} AS retry FROM deliveries
  WHERE status = 'pending' AND attempts ${retries === 'true' ? '<>' : '='} '[]'::jsonb AND next_attempt_at <= $1::timestamptz
    AND (claimed_until IS NULL OR claimed_until <= $1::timestamptz)
    AND NOT (webhook_id = ANY(${capped}::text[]))${held === null ? '' : ` AND NOT (id = ANY(${held}::text[]))`}
  ORDER BY next_attempt_at, seq LIMIT greatest(${claimWindow}, 2 * $3::integer))`;

/**
 * Leases due deliveries of active webhooks, due retries first (the schedule is a promise; a first attempt has no
 * promised time), then oldest first, at most `perWebhook` in flight per webhook counting the
 * ones the caller already holds. `SKIP LOCKED` lets several nodes claim at once without waiting on each other; the
 * lease makes a delivery invisible to other claims until it runs out (a node that dies loses its leases then).
 * Without a lease (the caller is the store's only dispatcher) nothing is written: the caller's own deliveries in
 * flight (`$2`) are left out instead, which spares PGlite one row write per delivery. `$7`/`$8`: the claim token
 * and the webhooks at their cap (leasing); `$7`: the webhooks at their cap (leaseless).
 */
const claimStatement = (lease: boolean, capped = lease ? '$8' : '$7', held = lease ? null : '$2') => `
WITH busy AS (SELECT * FROM unnest($4::text[], $5::integer[]) AS b(webhook_id, count)),
candidates AS (
  SELECT d.id, d.retry, row_number() OVER (PARTITION BY d.webhook_id ORDER BY d.retry DESC, d.next_attempt_at, d.seq)
           + coalesce(b.count, 0) AS rank
  FROM (${dueScan('true', capped, held)} UNION ALL ${dueScan('false', capped, held)}) AS d
  JOIN webhooks w ON w.id = d.webhook_id AND w.status = 'active'
  LEFT JOIN busy b ON b.webhook_id = d.webhook_id
),
picked AS (
  SELECT d.id FROM deliveries d JOIN candidates c ON c.id = d.id AND c.rank <= $6
  WHERE d.status = 'pending' AND (d.claimed_until IS NULL OR d.claimed_until <= $1::timestamptz)
  ORDER BY c.retry DESC, d.next_attempt_at, d.seq LIMIT $3::integer
  ${lease ? 'FOR UPDATE OF d SKIP LOCKED' : ''}
),
claimed AS (
  ${
    lease
      ? `UPDATE deliveries AS u SET claimed_until = $2::timestamptz, claim_token = $7
  FROM picked WHERE u.id = picked.id
  RETURNING u.*`
      : 'SELECT u.* FROM deliveries AS u JOIN picked ON u.id = picked.id'
  }
)
SELECT coalesce(json_agg(r ORDER BY r."nextAttemptAt", r."claimOrder"), '[]'::json)::text AS claimed FROM (
  SELECT ${selectList(deliveryShape)}, t.seq AS "claimOrder", t.retry_base AS "retryBase", t.generation,
    w.url AS "webhookUrl", w.signing_secret AS "signingSecret",
    w.previous_signing_secret AS "previousSigningSecret", w.previous_secret_expires_at AS "previousSecretExpiresAt",
    e.created AS "eventCreated", e.livemode AS "eventLivemode", e.data AS "eventData"
  FROM claimed AS t JOIN webhooks w ON w.id = t.webhook_id JOIN events e ON e.id = t.event_id
) AS r`;
const leasingClaim = claimStatement(true);
const leaselessClaim = claimStatement(false);

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
    generation: Number(record.generation),
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
  const capped = busy.filter(([, count]) => count >= request.perWebhook).map(([webhookId]) => webhookId);
  const common = [
    request.limit,
    busy.map(([webhookId]) => webhookId),
    busy.map(([, count]) => count),
    request.perWebhook,
  ];
  const [answer] =
    request.leaseUntil === null
      ? await executor.query<{ claimed: string }>(leaselessClaim, [
          request.now,
          [...request.held],
          ...common,
          capped,
        ])
      : await executor.query<{ claimed: string }>(leasingClaim, [
          request.now,
          request.leaseUntil,
          ...common,
          request.claimToken,
          capped,
        ]);
  const records = JSON.parse(answer?.claimed ?? '[]') as Array<Record<string, unknown>>;
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
    async nextDue(after) {
      // The first entry after `after` of the pending deliveries' due index.
      const [row] = await executor.query<{ next: string | Date | null }>(
        `SELECT min(next_attempt_at) AS next FROM deliveries
         WHERE status = 'pending' AND next_attempt_at > $1::timestamptz`,
        [after],
      );
      return row?.next === null || row?.next === undefined ? null : new Date(row.next).toISOString();
    },
    async settle(outcomes) {
      if (outcomes.length === 0) return [];
      const rows = await executor.query<{ id: string }>(
        `UPDATE deliveries AS t SET status = x.status, attempts = t.attempts || jsonb_build_array(x.attempt),
           next_attempt_at = x.next_attempt_at, claimed_until = NULL, claim_token = NULL
         FROM jsonb_to_recordset($1::jsonb)
           AS x(id text, claim_token text, generation integer, status text, attempt jsonb, next_attempt_at timestamptz)
         WHERE t.id = ANY($2::text[]) AND t.id = x.id AND t.generation = x.generation AND t.claim_token IS NOT DISTINCT FROM x.claim_token
           AND (x.claim_token IS NOT NULL OR t.status = 'pending')
         RETURNING t.id`,
        [
          JSON.stringify(
            outcomes.map((outcome) => ({
              id: outcome.id,
              claim_token: outcome.claimToken,
              generation: outcome.generation,
              status: outcome.status,
              attempt: outcome.attempt,
              next_attempt_at: outcome.nextAttemptAt,
            })),
          ),
          outcomes.map((outcome) => outcome.id),
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
         generation = t.generation + 1, claimed_until = NULL, claim_token = NULL`,
        't.account_id = $1 AND t.webhook_id = $2 AND t.id = $3',
        [accountId, webhookId, id, at],
      );
      return row ?? null;
    },
  };
}
