import { describe, expect, it } from 'vitest';
import type { ClaimedDelivery, DeliveryOutcome } from '../../rows.js';
import type { ClaimRequest } from '../../store.js';
import { deliveryRow, eventRow, newAccount, webhookRow } from '../fixtures.js';
import type { ContractContext } from './context.js';

// Year 2000: before every other test's due times, since claims look at every account.
const when = (minutes: number) => new Date(Date.UTC(2000, 0, 1) + minutes * 60_000).toISOString();
const request = (claimToken: string, overrides: Partial<ClaimRequest> = {}): ClaimRequest => ({
  now: when(5),
  leaseUntil: when(10),
  held: [],
  limit: 10,
  perWebhook: 10,
  inFlightPerWebhook: new Map(),
  claimToken,
  ...overrides,
});
const outcome = (id: string, claimToken: string | null, generation = 0): DeliveryOutcome => ({
  id,
  claimToken,
  generation,
  status: 'delivered',
  attempt: { attemptedAt: when(5), statusCode: 204, error: null, durationMs: 7 },
  nextAttemptAt: null,
});

export function describeDeliveryClaimCases(context: ContractContext): void {
  describe('delivery claims', () => {
    it('leases due deliveries once, per-webhook capped, settles only under its own lease, requeues', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const webhook = await store.webhooks.insert(webhookRow(accountId));
      const event = await store.events.insert(eventRow(accountId));
      const ids: string[] = [];
      for (const minutes of [2, 1, 3, 40])
        ids.push(
          (await store.deliveries.insert(deliveryRow(event, webhook.id, { nextAttemptAt: when(minutes) })))
            .id,
        );
      const capped = await store.deliveries.claim(
        request('a', { perWebhook: 3, inFlightPerWebhook: new Map([[webhook.id, 1]]) }),
      );
      expect(capped.map((claimed) => claimed.delivery.id)).toEqual([ids[1], ids[0]]);
      expect(capped[0]?.event).toMatchObject({ id: event.id, data: event.data });
      expect(capped[0]?.webhook).toMatchObject({ url: webhook.url, signingSecret: webhook.signingSecret });
      // Leased rows are invisible to another claim until the lease runs out.
      expect((await store.deliveries.claim(request('b'))).map((claimed) => claimed.delivery.id)).toEqual([
        ids[2],
      ]);
      expect(await store.deliveries.claim(request('c'))).toEqual([]);
      expect(
        (await store.deliveries.claim(request('c', { now: when(11), leaseUntil: when(20) }))).map(
          (claimed) => claimed.delivery.id,
        ),
      ).toEqual([ids[1], ids[0], ids[2]]);
      // 'a' lost its leases to 'c': its outcomes are not applied; 'c''s are.
      expect(await store.deliveries.settle([outcome(ids[1] ?? '', 'a')])).toEqual([]);
      expect(await store.deliveries.settle([outcome(ids[1] ?? '', 'c')])).toEqual([ids[1]]);
      expect(await store.deliveries.get(accountId, ids[1] ?? '')).toMatchObject({
        status: 'delivered',
        nextAttemptAt: null,
        attempts: [outcome('', '').attempt],
      });
      await store.deliveries.release('c', null);
      expect((await store.deliveries.claim(request('d'))).map((claimed) => claimed.delivery.id)).toEqual([
        ids[0],
        ids[2],
      ]);
      const requeued = await store.deliveries.requeue(accountId, webhook.id, ids[1] ?? '', when(4));
      expect(requeued).toMatchObject({
        status: 'pending',
        nextAttemptAt: when(4),
        attempts: [outcome('', '').attempt],
      });
      expect(await store.deliveries.requeue(accountId, 'wh_other', ids[1] ?? '', when(4))).toBeNull();
      await store.deliveries.release(null, [ids[0] ?? '', ids[2] ?? '']);
    });

    it('claims without a lease for the only dispatcher: leaves out what it holds, settles while pending', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const webhook = await store.webhooks.insert(webhookRow(accountId));
      const event = await store.events.insert(eventRow(accountId));
      const ids: string[] = [];
      for (const minutes of [1, 2, 3])
        ids.push(
          (await store.deliveries.insert(deliveryRow(event, webhook.id, { nextAttemptAt: when(minutes) })))
            .id,
        );
      // Other cases leave deliveries due at these times too: look only at this webhook's.
      const mine = (claims: ClaimedDelivery[]) =>
        claims.map((claimed) => claimed.delivery.id).filter((id) => ids.includes(id));
      const leaseless = async (held: string[]) =>
        mine(await store.deliveries.claim(request('x', { leaseUntil: null, held, perWebhook: 2 })));
      expect(await leaseless([])).toEqual([ids[0], ids[1]]);
      // Nothing was written, and the holder's own deliveries are left out of its next claim.
      expect(await leaseless([ids[0] ?? ''])).toEqual([ids[1], ids[2]]);
      expect(await store.deliveries.settle([outcome(ids[0] ?? '', null)])).toEqual([ids[0]]);
      // Settled once: no longer pending, so a second leaseless outcome is not applied.
      expect(await store.deliveries.settle([outcome(ids[0] ?? '', null)])).toEqual([]);
      // A leased delivery is not settled by a leaseless outcome.
      expect(mine(await store.deliveries.claim(request('y', { perWebhook: 1 })))).toEqual([ids[1]]);
      expect(await store.deliveries.settle([outcome(ids[1] ?? '', null)])).toEqual([]);
      await store.deliveries.release(null, null);
      for (const id of ids.slice(1)) await store.deliveries.settle([outcome(id, null)]);
    });

    it('does not settle an attempt claimed before a replay over the replay', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const webhook = await store.webhooks.insert(webhookRow(accountId));
      const event = await store.events.insert(eventRow(accountId));
      const { id } = await store.deliveries.insert(
        deliveryRow(event, webhook.id, { nextAttemptAt: when(1) }),
      );
      const claimFrom = async (at: number) =>
        (
          await store.deliveries.claim(
            request('x', { now: when(at), leaseUntil: null, limit: 1000, perWebhook: 1000 }),
          )
        ).find((claimed) => claimed.delivery.id === id);
      const first = await claimFrom(5);
      expect(first?.generation).toBe(0);
      // Replayed while that attempt is in flight: still pending, due now, a new generation.
      expect(await store.deliveries.requeue(accountId, webhook.id, id, when(6))).toMatchObject({
        status: 'pending',
      });
      expect(await store.deliveries.settle([outcome(id, null, first?.generation)])).toEqual([]);
      expect(await store.deliveries.get(accountId, id)).toMatchObject({
        status: 'pending',
        nextAttemptAt: when(6),
        attempts: [],
      });
      const replayed = await claimFrom(6);
      expect(replayed?.generation).toBe(1);
      expect(await store.deliveries.settle([outcome(id, null, replayed?.generation)])).toEqual([id]);
      expect(await store.deliveries.get(accountId, id)).toMatchObject({ status: 'delivered' });
    });

    it('keeps the service clock anchor', async () => {
      const store = context.store();
      const anchor = { wallMs: 1_700_000_000_000, scaledMs: 1_700_000_123_456, scale: 2.5 };
      await store.serviceClock.write(anchor);
      expect(await store.serviceClock.read()).toEqual(anchor);
    });
  });
}
