import { describe, expect, it } from 'vitest';
import type { Store } from '../../store.js';
import {
  deliveryRow,
  eventRow,
  newAccount,
  recordRow,
  reportRow,
  streamRow,
  uniqueId,
  webhookRow,
} from '../fixtures.js';
import type { ContractContext, OwnedTable } from './context.js';

interface ResourceCase<Row extends { id: string; accountId: string }> {
  table: (store: Store) => OwnedTable<Row>;
  /** A new row of the account, its parent rows inserted first. */
  make: (store: Store, accountId: string) => Promise<Row>;
  change: Partial<Omit<Row, 'id' | 'accountId'>>;
}

function resourceCases<Row extends { id: string; accountId: string }>(
  name: string,
  context: ContractContext,
  { table, make, change }: ResourceCase<Row>,
): void {
  describe(name, () => {
    it('insert, get, update, delete', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const row = await make(store, accountId);
      const inserted = await table(store).insert(row);
      expect(inserted).toMatchObject(row);
      expect(await table(store).get(accountId, row.id)).toEqual(inserted);
      const updated = await table(store).update(accountId, row.id, change);
      expect(updated).toEqual({ ...inserted, ...change });
      expect(await table(store).get(accountId, row.id)).toEqual(updated);
      expect(await table(store).update(accountId, row.id, {})).toEqual(updated);
      expect(await table(store).delete(accountId, row.id)).toBe(true);
      expect(await table(store).get(accountId, row.id)).toBeNull();
      expect(await table(store).delete(accountId, row.id)).toBe(false);
      expect(await table(store).update(accountId, row.id, change)).toBeNull();
    });

    it("another account's id is absent everywhere", async () => {
      const store = context.store();
      const [owner, stranger] = [await newAccount(store), await newAccount(store)];
      const inserted = await table(store).insert(await make(store, owner));
      expect(await table(store).get(stranger, inserted.id)).toBeNull();
      expect(await table(store).update(stranger, inserted.id, change)).toBeNull();
      expect(await table(store).delete(stranger, inserted.id)).toBe(false);
      expect(await table(store).list(stranger, { limit: 10 })).toEqual({ items: [], hasMore: false });
      expect(await table(store).list(stranger, { limit: 10, after: inserted.id })).toBeNull();
      expect(await table(store).list(stranger, { limit: 10, before: inserted.id })).toBeNull();
      expect(await table(store).get(owner, inserted.id)).toEqual(inserted);
    });
  });
}

export function describeResourceCases(context: ContractContext): void {
  resourceCases('streams', context, {
    table: (store) => store.streams,
    make: async (_store, accountId) => streamRow(accountId),
    change: {
      status: 'live',
      subscriberCount: 3,
      metadata: { line: '4' },
      startedAt: '2030-01-01T10:00:00.000Z',
    },
  });
  resourceCases('reports', context, {
    table: (store) => store.reports,
    make: async (_store, accountId) => reportRow(accountId),
    change: { title: 'Night shift', status: 'published' },
  });
  resourceCases('records', context, {
    table: (store) => store.records,
    make: async (store, accountId) =>
      recordRow(accountId, (await store.reports.insert(reportRow(accountId))).id),
    change: { status: 'published', samples: [{ t: 2, v: null }], publishedAt: '2030-01-02T00:00:00.000Z' },
  });
  resourceCases('webhooks', context, {
    table: (store) => store.webhooks,
    make: async (_store, accountId) => webhookRow(accountId),
    change: { events: ['webhook.test'], description: 'Plant 3' },
  });
  resourceCases('deliveries', context, {
    table: (store) => store.deliveries,
    make: async (store, accountId) => {
      const event = await store.events.insert(eventRow(accountId));
      return deliveryRow(event, (await store.webhooks.insert(webhookRow(accountId))).id);
    },
    change: {
      status: 'delivered',
      attempts: [{ attemptedAt: '2030-01-01T00:05:00.000Z', statusCode: 204, error: null, durationMs: 3 }],
      nextAttemptAt: null,
    },
  });
  it('an unknown id is absent', async () => {
    const store = context.store();
    const accountId = await newAccount(store);
    expect(await store.streams.get(accountId, uniqueId('str'))).toBeNull();
    expect(await store.streams.getById(uniqueId('str'))).toBeNull();
  });
}
