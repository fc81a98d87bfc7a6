import type { ClaimedDelivery, DeliveryRow, EventRow, WebhookRow } from '../rows.js';
import type { ClaimRequest, Store } from '../store.js';
import { type Journal, type MemoryTable, ownedMemoryTable } from './memory-table.js';

/** What the SQL table keeps beside a delivery row: the lease, where the retry schedule began, the replays. */
interface Lease {
  claimedUntil: string | null;
  claimToken: string | null;
  retryBase: number;
  generation: number;
}

const noLease: Lease = { claimedUntil: null, claimToken: null, retryBase: 0, generation: 0 };

interface Tables {
  journal: Journal;
  deliveries: MemoryTable<DeliveryRow>;
  webhooks: MemoryTable<WebhookRow>;
  events: MemoryTable<EventRow>;
}

const at = (time: string | null) => (time === null ? Number.NaN : Date.parse(time));

/** The in-memory twin of the SQL `deliveries` table, with the same claim rules (ADR 0012). */
export function memoryDeliveries(tables: Tables): Store['deliveries'] {
  const leases = new Map<string, Lease>();
  const leaseOf = (id: string) => leases.get(id) ?? noLease;
  const setLease = (id: string, change: Partial<Lease>) =>
    tables.journal.write(leases, id, { ...leaseOf(id), ...change });
  const seqOf = (id: string) => tables.deliveries.entries.get(id)?.seq ?? 0;
  const dueOrder = (left: DeliveryRow, right: DeliveryRow) =>
    at(left.nextAttemptAt) - at(right.nextAttemptAt) || seqOf(left.id) - seqOf(right.id);

  function claim(request: ClaimRequest): ClaimedDelivery[] {
    const now = at(request.now);
    // Without a lease (the store's only dispatcher), what the caller holds is left out instead of leased.
    const held = new Set(request.leaseUntil === null ? request.held : []);
    const retryFirst = (left: DeliveryRow, right: DeliveryRow) =>
      Number(right.attempts.length > 0) - Number(left.attempts.length > 0) || dueOrder(left, right);
    const candidates = tables.deliveries
      .select((row) => {
        const lease = leaseOf(row.id);
        const webhook = tables.webhooks.entries.get(row.webhookId)?.row;
        return (
          row.status === 'pending' &&
          !held.has(row.id) &&
          at(row.nextAttemptAt) <= now &&
          (lease.claimedUntil === null || at(lease.claimedUntil) <= now) &&
          webhook?.status === 'active'
        );
      })
      .sort(retryFirst);
    const taken = new Map(request.inFlightPerWebhook);
    const picked: DeliveryRow[] = [];
    for (const row of candidates) {
      if (picked.length >= request.limit) break;
      const count = (taken.get(row.webhookId) ?? 0) + 1;
      if (count > request.perWebhook) continue;
      taken.set(row.webhookId, count);
      picked.push(row);
    }
    if (request.leaseUntil !== null)
      for (const row of picked)
        setLease(row.id, { claimedUntil: request.leaseUntil, claimToken: request.claimToken });
    return picked.sort(dueOrder).map((delivery) => {
      const webhook = tables.webhooks.entries.get(delivery.webhookId)?.row as WebhookRow;
      return {
        delivery,
        retryBase: leaseOf(delivery.id).retryBase,
        generation: leaseOf(delivery.id).generation,
        webhook: {
          url: webhook.url,
          signingSecret: webhook.signingSecret,
          previousSigningSecret: webhook.previousSigningSecret ?? null,
          previousSecretExpiresAt: webhook.previousSecretExpiresAt ?? null,
        },
        event: tables.events.read(tables.events.entries.get(delivery.eventId)) as EventRow,
      };
    });
  }

  return {
    ...ownedMemoryTable<DeliveryRow, { webhookId: string }>(tables.deliveries),
    due: async (now, limit) =>
      tables.deliveries
        .select((row) => row.status === 'pending' && at(row.nextAttemptAt) <= at(now))
        .sort(dueOrder)
        .slice(0, limit),
    claim: async (request) => claim(request),
    async nextDue(after) {
      const earliest = tables.deliveries
        .select((row) => row.status === 'pending' && at(row.nextAttemptAt) > at(after))
        .reduce((soonest, row) => Math.min(soonest, at(row.nextAttemptAt)), Number.POSITIVE_INFINITY);
      return earliest === Number.POSITIVE_INFINITY ? null : new Date(earliest).toISOString();
    },
    async settle(outcomes) {
      const applied: string[] = [];
      for (const outcome of outcomes) {
        const row = tables.deliveries.entries.get(outcome.id)?.row;
        const lease = leaseOf(outcome.id);
        if (row === undefined || lease.claimToken !== outcome.claimToken) continue;
        // Replayed since it was claimed: the replay's own attempt decides.
        if (lease.generation !== outcome.generation) continue;
        // A leaseless outcome applies only while the delivery is still pending (settled once).
        if (outcome.claimToken === null && row.status !== 'pending') continue;
        tables.deliveries.change(outcome.id, {
          status: outcome.status,
          attempts: [...row.attempts, outcome.attempt],
          nextAttemptAt: outcome.nextAttemptAt,
        } as Partial<DeliveryRow>);
        setLease(outcome.id, { claimedUntil: null, claimToken: null });
        applied.push(outcome.id);
      }
      return applied;
    },
    async release(claimToken, ids) {
      for (const [id, lease] of [...leases]) {
        if (lease.claimToken === null || (claimToken !== null && lease.claimToken !== claimToken)) continue;
        if (ids === null || ids.includes(id)) setLease(id, { claimedUntil: null, claimToken: null });
      }
    },
    async requeue(accountId, webhookId, id, at) {
      const row = tables.deliveries.entries.get(id)?.row;
      if (row === undefined || row.accountId !== accountId || row.webhookId !== webhookId) return null;
      setLease(id, {
        claimedUntil: null,
        claimToken: null,
        retryBase: row.attempts.length,
        generation: leaseOf(id).generation + 1,
      });
      return tables.deliveries.change(id, { status: 'pending', nextAttemptAt: at } as Partial<DeliveryRow>);
    },
  };
}
