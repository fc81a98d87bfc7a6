import { describe, expect, it } from 'vitest';
import type { Store } from '../../store.js';
import { at, newAccount, recordRow, reportRow, streamRow, uniqueId } from '../fixtures.js';
import type { ContractContext } from './context.js';

/** Inserts `count` streams one after the other; returns their ids newest first (the order of every list). */
async function insertStreams(
  store: Store,
  accountId: string,
  count: number,
  status = (_index: number) => 'idle',
) {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    ids.push((await store.streams.insert(streamRow(accountId, { status: status(index) }))).id);
  }
  return ids.reverse();
}

/** The id at `index`, which the test knows to exist. */
function idAt(ids: readonly string[], index: number): string {
  const id = ids[index];
  if (id === undefined) throw new Error(`no id at ${index} of ${ids.length}`);
  return id;
}

const idsOf = (page: { items: { id: string }[] } | null) => page?.items.map((item) => item.id);

export function describePaginationCases(context: ContractContext): void {
  describePaging(context);
  describeFilteredPaging(context);
}

function describePaging(context: ContractContext): void {
  describe('pagination', () => {
    it('45 items by 20: pages of 20, 20, 5 forwards, and `before` walks back exactly', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const ids = await insertStreams(store, accountId, 45);
      const first = await store.streams.list(accountId, { limit: 20 });
      const second = await store.streams.list(accountId, { limit: 20, after: idAt(ids, 19) });
      const third = await store.streams.list(accountId, { limit: 20, after: idAt(ids, 39) });
      expect([idsOf(first), idsOf(second), idsOf(third)]).toEqual([
        ids.slice(0, 20),
        ids.slice(20, 40),
        ids.slice(40),
      ]);
      expect([first?.hasMore, second?.hasMore, third?.hasMore]).toEqual([true, true, false]);
      const back = await store.streams.list(accountId, { limit: 20, before: idAt(ids, 40) });
      expect([idsOf(back), back?.hasMore]).toEqual([ids.slice(20, 40), true]);
      const start = await store.streams.list(accountId, { limit: 20, before: idAt(ids, 20) });
      expect([idsOf(start), start?.hasMore]).toEqual([ids.slice(0, 20), false]);
      const between = await store.streams.list(accountId, {
        limit: 20,
        after: idAt(ids, 2),
        before: idAt(ids, 6),
      });
      expect(idsOf(between)).toEqual(ids.slice(3, 6));
    });

    it('refuses a page without a whole, positive limit on every store alike', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      await insertStreams(store, accountId, 2);
      // The types forbid it; a caller that slips (or a mutant) must fail on the test store as it does on SQL.
      for (const limit of [undefined, Number.NaN, 0, 1.5]) {
        await expect(
          store.streams.list(accountId, { limit } as unknown as { limit: number }),
        ).rejects.toThrow();
      }
    });

    it('newest first by createdAt even when rows arrive out of that order (two nodes writing at once)', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      // Stamped 5, 3, 4, 1, 3, 2 minutes in, inserted in that order; the two at 3 tie and keep insertion order.
      const minutes = [5, 3, 4, 1, 3, 2];
      const rows = [];
      for (const minute of minutes)
        rows.push(await store.reports.insert(reportRow(accountId, { createdAt: at(minute) })));
      const inserted = rows.map((row) => row.id);
      const expected = [0, 2, 4, 1, 5, 3].map((index) => idAt(inserted, index));
      const all = await store.reports.list(accountId, { limit: 10 });
      expect(idsOf(all)).toEqual(expected);
      const first = await store.reports.list(accountId, { limit: 3 });
      const rest = await store.reports.list(accountId, { limit: 3, after: idAt(idsOf(first) ?? [], 2) });
      expect([idsOf(first), idsOf(rest), rest?.hasMore]).toEqual([
        expected.slice(0, 3),
        expected.slice(3),
        false,
      ]);
      const back = await store.reports.list(accountId, { limit: 2, before: idAt(expected, 3) });
      expect([idsOf(back), back?.hasMore]).toEqual([expected.slice(1, 3), true]);
      const between = await store.reports.list(accountId, {
        limit: 10,
        after: idAt(expected, 0),
        before: idAt(expected, 4),
      });
      expect(idsOf(between)).toEqual(expected.slice(1, 4));
    });

    it('an unknown cursor gives null', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      await insertStreams(store, accountId, 2);
      expect(await store.streams.list(accountId, { limit: 5, after: uniqueId('str') })).toBeNull();
      expect(await store.streams.list(accountId, { limit: 5, before: uniqueId('str') })).toBeNull();
      expect(await store.webhooks.list(accountId, { limit: 5, after: uniqueId('wh') })).toBeNull();
    });
  });
}

function describeFilteredPaging(context: ContractContext): void {
  describe('pagination with filters', () => {
    it('a status filter narrows the items; its cursor may be an item the filter leaves out', async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const ids = await insertStreams(store, accountId, 9, (index) => (index % 3 === 0 ? 'live' : 'idle'));
      const live = ids.filter((_id, index) => index % 3 === 2);
      const page = await store.streams.list(accountId, { limit: 2 }, { status: 'live' });
      expect([idsOf(page), page?.hasMore]).toEqual([live.slice(0, 2), true]);
      const rest = await store.streams.list(accountId, { limit: 2, after: idAt(ids, 3) }, { status: 'live' });
      expect([idsOf(rest), rest?.hasMore]).toEqual([live.slice(1), false]);
      const draft = await store.reports.insert(reportRow(accountId, { status: 'draft' }));
      await store.reports.insert(reportRow(accountId, { status: 'published' }));
      const reports = await store.reports.list(accountId, { limit: 5 }, { status: 'draft' });
      expect(reports).toEqual({ items: [draft], hasMore: false });
    });

    it("records are listed per report; another report's record is no cursor", async () => {
      const store = context.store();
      const accountId = await newAccount(store);
      const [reportA, reportB] = [reportRow(accountId), reportRow(accountId)];
      await store.reports.insert(reportA);
      await store.reports.insert(reportB);
      const inA: string[] = [];
      const inB: string[] = [];
      for (let index = 0; index < 6; index++) {
        inA.unshift((await store.records.insert(recordRow(accountId, reportA.id))).id);
        inB.unshift((await store.records.insert(recordRow(accountId, reportB.id))).id);
      }
      const page = await store.records.list(accountId, { limit: 4 }, { reportId: reportA.id });
      expect([idsOf(page), page?.hasMore]).toEqual([inA.slice(0, 4), true]);
      const next = await store.records.list(
        accountId,
        { limit: 4, after: idAt(inA, 3) },
        { reportId: reportA.id },
      );
      expect([idsOf(next), next?.hasMore]).toEqual([inA.slice(4), false]);
      expect(
        await store.records.list(accountId, { limit: 4, after: idAt(inB, 0) }, { reportId: reportA.id }),
      ).toBeNull();
    });
  });
}
