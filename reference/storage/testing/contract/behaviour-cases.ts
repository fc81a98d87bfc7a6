import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../migrate.js';
import {
  deliveryRow,
  eventRow,
  newAccount,
  recordRow,
  reportRow,
  streamRow,
  webhookRow,
} from '../fixtures.js';
import type { ContractContext } from './context.js';

const migrationFiles = readdirSync(new URL('../../migrations/', import.meta.url)).filter((name) =>
  name.endsWith('.sql'),
);

export function describeBehaviourCases(context: ContractContext): void {
  describeDerivedRows(context);
  describeDue(context);
  describeTransactions(context);
}

function describeDerivedRows(context: ContractContext): void {
  describe('derived and selected rows', () => {
    it('recordCount follows inserts and deletes, and a deleted report takes its records along', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const [report, other] = [reportRow(accountId), reportRow(accountId)];
      expect((await store.reports.insert(report)).recordCount).toBe(0);
      await store.reports.insert(other);
      const [deleted, kept] = [recordRow(accountId, report.id), recordRow(accountId, report.id)];
      for (const record of [deleted, kept, recordRow(accountId, other.id)])
        await store.records.insert(record);
      expect((await store.reports.get(accountId, report.id))?.recordCount).toBe(2);
      expect(
        (await store.reports.list(accountId, { limit: 5 }))?.items.map((item) => item.recordCount),
      ).toEqual([1, 2]);
      expect(await store.records.delete(accountId, deleted.id)).toBe(true);
      expect((await store.reports.update(accountId, report.id, { title: 'Renamed' }))?.recordCount).toBe(1);
      expect(await store.reports.delete(accountId, report.id)).toBe(true);
      expect(await store.records.get(accountId, kept.id)).toBeNull();
    });

    it('records.appendSamples appends to a draft in one write and answers the new count, or null for no draft', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const report = await store.reports.insert(reportRow(accountId));
      const record = await store.records.insert(recordRow(accountId, report.id, { samples: [{ ts: 1 }] }));
      expect(await store.records.appendSamples(accountId, record.id, [{ ts: 2 }, { ts: 3 }])).toBe(3);
      expect((await store.records.get(accountId, record.id))?.samples).toEqual([
        { ts: 1 },
        { ts: 2 },
        { ts: 3 },
      ]);
      expect(await store.records.appendSamples(await newAccount(store), record.id, [{ ts: 4 }])).toBeNull();
      expect(await store.records.appendSamples(accountId, 'rec_missing', [{ ts: 4 }])).toBeNull();
      // A published record is fixed.
      await store.records.update(accountId, record.id, {
        status: 'published',
        publishedAt: '2026-01-02T03:04:05.000Z',
      });
      expect(await store.records.appendSamples(accountId, record.id, [{ ts: 4 }])).toBeNull();
      expect((await store.records.get(accountId, record.id))?.samples).toHaveLength(3);
    });

    it('records.publishedWindow: the newest published records of one report, with sample counts and no samples', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const report = await store.reports.insert(reportRow(accountId));
      const other = await store.reports.insert(reportRow(accountId));
      const published = (samples: unknown[]) =>
        recordRow(accountId, report.id, {
          status: 'published',
          publishedAt: '2026-01-02T03:04:05.000Z',
          samples,
        });
      const oldest = await store.records.insert(published([{ t: 1 }]));
      await store.records.insert(recordRow(accountId, report.id, { status: 'draft' }));
      await store.records.insert(recordRow(accountId, other.id, { status: 'published' }));
      const middle = await store.records.insert(published([]));
      // Recorded as a draft, then published: the count follows the appends.
      const newest = await store.records.insert(recordRow(accountId, report.id, { samples: [{ t: 1 }] }));
      expect(await store.records.appendSamples(accountId, newest.id, [{ t: 2 }, { t: 3 }])).toBe(3);
      await store.records.update(accountId, newest.id, {
        status: 'published',
        publishedAt: '2026-01-02T03:04:05.000Z',
      });
      // Created last but published before the others: "newest" is by publication, ties by creation.
      const publishedFirst = await store.records.insert(
        recordRow(accountId, report.id, { status: 'published', publishedAt: '2026-01-01T00:00:00.000Z' }),
      );
      const window = await store.records.publishedWindow(accountId, report.id, 2);
      expect(window).toEqual([
        {
          id: newest.id,
          title: newest.title,
          sampleCount: 3,
          createdAt: newest.createdAt,
          publishedAt: '2026-01-02T03:04:05.000Z',
        },
        {
          id: middle.id,
          title: middle.title,
          sampleCount: 0,
          createdAt: middle.createdAt,
          publishedAt: '2026-01-02T03:04:05.000Z',
        },
      ]);
      expect((await store.records.publishedWindow(accountId, report.id, 10)).map(({ id }) => id)).toEqual([
        newest.id,
        middle.id,
        oldest.id,
        publishedFirst.id,
      ]);
      expect(await store.records.publishedWindow(await newAccount(store), report.id, 10)).toEqual([]);
    });

    it('webhooks.subscribedTo and count; a deleted webhook takes its deliveries along', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const online = await store.webhooks.insert(webhookRow(accountId, { events: ['device.online'] }));
      await store.webhooks.insert(webhookRow(accountId, { events: ['report.generated'] }));
      await store.webhooks.insert(webhookRow(await newAccount(store), { events: ['device.online'] }));
      expect(await store.webhooks.subscribedTo(accountId, 'device.online')).toEqual([online]);
      expect(await store.webhooks.count(accountId)).toBe(2);
      const event = await store.events.insert(eventRow(accountId));
      const delivery = await store.deliveries.insert(deliveryRow(event, online.id));
      expect(await store.webhooks.delete(accountId, online.id)).toBe(true);
      expect(await store.deliveries.get(accountId, delivery.id)).toBeNull();
      expect(await store.webhooks.count(accountId)).toBe(1);
    });
  });
}

function describeTransactions(context: ContractContext): void {
  describe('transactions and migrations', () => {
    it('a transaction whose work throws leaves nothing written, nested work included', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const [outer, inner] = [streamRow(accountId), streamRow(accountId)];
      const failing = store.transaction(async (transaction) => {
        await transaction.streams.insert(outer);
        await transaction.transaction((nested) => nested.streams.insert(inner));
        throw new Error('work failed');
      });
      await expect(failing).rejects.toThrow('work failed');
      expect(await store.streams.list(accountId, { limit: 5 })).toEqual({ items: [], hasMore: false });
      const committed = await store.transaction((transaction) =>
        transaction.streams.insert(streamRow(accountId)),
      );
      expect(await store.streams.get(accountId, committed.id)).toEqual(committed);
    });

    it.skipIf(context.withoutSql === true)('migrations are recorded once and are idempotent', async () => {
      expect(await migrate(context.executor())).toEqual([]);
      const versions = await context
        .executor()
        .query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(versions.map((row) => row.version)).toEqual(migrationFiles.sort());
    });
  });
}

function describeDue(context: ContractContext): void {
  describe('deliveries due', () => {
    it('deliveries.due: pending and due only, oldest first, up to the limit', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const webhook = await store.webhooks.insert(webhookRow(accountId));
      const event = await store.events.insert(eventRow(accountId));
      // Year 2001, before every other test's timestamps, since `due` looks at every account.
      const when = (minutes: number) => new Date(Date.UTC(2001, 0, 1) + minutes * 60_000).toISOString();
      const planned = [
        { nextAttemptAt: when(3), status: 'pending' },
        { nextAttemptAt: when(1), status: 'pending' },
        { nextAttemptAt: when(2), status: 'delivered' },
        { nextAttemptAt: when(9), status: 'pending' },
        { nextAttemptAt: when(1), status: 'pending' },
        { nextAttemptAt: null, status: 'undelivered' },
      ];
      const ids: string[] = [];
      for (const plan of planned)
        ids.push((await store.deliveries.insert(deliveryRow(event, webhook.id, plan))).id);
      const dueIds = async (limit: number) =>
        (await store.deliveries.due(when(5), limit)).map((row) => row.id);
      expect(await dueIds(10)).toEqual([ids[1], ids[4], ids[0]]);
      expect(await dueIds(2)).toEqual([ids[1], ids[4]]);
    });

    it('deliveries.nextDue: the earliest pending next attempt strictly after the time given', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const webhook = await store.webhooks.insert(webhookRow(accountId));
      const event = await store.events.insert(eventRow(accountId));
      // Year 2999, after every other test's due times (`nextDue` looks at every account), and never due for their
      // claims (which look at every account too).
      const when = (minutes: number) => new Date(Date.UTC(2999, 0, 1) + minutes * 60_000).toISOString();
      for (const plan of [
        { nextAttemptAt: when(7), status: 'pending' },
        { nextAttemptAt: when(2), status: 'delivered' },
        { nextAttemptAt: when(4), status: 'pending' },
        { nextAttemptAt: when(1), status: 'pending' },
      ])
        await store.deliveries.insert(deliveryRow(event, webhook.id, plan));
      expect(await store.deliveries.nextDue(when(0))).toBe(when(1));
      // Strictly after: a delivery due at that very time is due now, not next; a delivered one never is.
      expect(await store.deliveries.nextDue(when(1))).toBe(when(4));
      expect(await store.deliveries.nextDue(when(5))).toBe(when(7));
    });
  });
}
