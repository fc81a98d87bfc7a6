// Pagination at its edges (issue 13, family 3): a page exactly full, the largest page over one item more, cursors
// from elsewhere (another list, another account, a deleted item), and a status filter walked one item at a time.
// Every check pages a list it made itself (the records of its own report), so nothing else in the account counts.
import { describe } from 'vitest';
import { apiPolicies } from '../../generated/types/facts.js';
import type { Record as RecordObject, Report } from '../../generated/types/schemas.js';
import { expectThat } from '../harness/check.js';
import type { Exchange } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import { restCheck } from './support/rest-check.js';
import { createRecord, createReport, mapConcurrently, sample } from './support/rest-fixtures.js';
import {
  call,
  expectError,
  expectListPage,
  expectOperationResponse,
  type ListPage,
} from './support/rest-http.js';
import { limitBounds } from './support/rest-spec.js';

/** Several sequential requests each: room for a loaded machine, far beyond what they take on a quiet one. */
const slowMachine = { timeout: 60_000 };

const { limitParameter, cursorParameter, reverseCursorParameter } = apiPolicies.pagination;

/** A report of its own with `count` records, newest first as the list gives them. */
async function reportWithRecords(count: number): Promise<{ report: Report; newestFirst: RecordObject[] }> {
  const { report } = await createReport(`Conformance page edges (${count})`);
  const records: RecordObject[] = [];
  // One after another: the list's order is creation order, and concurrent creations may share a millisecond.
  for (let index = 0; index < count; index += 1)
    records.push((await createRecord(report.id, { samples: [sample(1_700_000_000_000 + index)] })).record);
  return { report, newestFirst: records.reverse() };
}

async function recordPage(
  reportId: string,
  query: Record<string, string | number>,
): Promise<ListPage<RecordObject> & { exchange: Exchange }> {
  const exchange = await call('listRecords', { reportId }, { query });
  return { exchange, ...expectListPage<RecordObject>('listRecords', exchange) };
}

const idsOf = (items: readonly { id: string }[]) => items.map((item) => item.id).join(',');

describe('pagination at its edges', () => {
  restCheck(
    ['RES-LIST-HAS-MORE', 'RES-LIST-NEXT-CURSOR', 'EP-LIST-LIMIT'],
    'a page exactly as full as the list is long has hasMore false and nextCursor null; one item short, it has more',
    async () => {
      const { report, newestFirst } = await reportWithRecords(3);
      const exact = await recordPage(report.id, { [limitParameter]: 3 });
      expectThat(
        idsOf(exact.data) === idsOf(newestFirst) && !exact.hasMore && exact.nextCursor === null,
        'the three records, hasMore false, nextCursor null',
        exact.exchange,
      );
      const short = await recordPage(report.id, { [limitParameter]: 2 });
      expectThat(
        idsOf(short.data) === idsOf(newestFirst.slice(0, 2)) && short.hasMore && short.nextCursor !== null,
        'the two newest, hasMore true, a nextCursor',
        short.exchange,
      );
      const rest = await recordPage(report.id, {
        [limitParameter]: 2,
        [cursorParameter]: short.nextCursor ?? '',
      });
      expectThat(
        idsOf(rest.data) === idsOf(newestFirst.slice(2)) && !rest.hasMore && rest.nextCursor === null,
        'the oldest alone on the last page, hasMore false, nextCursor null',
        rest.exchange,
      );
    },
    slowMachine,
  );

  restCheck(
    ['EP-LIST-LIMIT', 'RES-LIST-HAS-MORE', 'EP-CURSOR-PAGINATION'],
    'the largest limit over one item more: a full page of the newest, then a page of the one left',
    async () => {
      const { maximum } = limitBounds();
      const { report } = await createReport('Conformance largest page');
      const created = await mapConcurrently(
        Array.from({ length: maximum + 1 }, (_, index) => index),
        8,
        async (index) =>
          (await createRecord(report.id, { samples: [sample(1_700_000_000_000 + index)] })).record,
      );
      const first = await recordPage(report.id, { [limitParameter]: maximum });
      expectThat(
        first.data.length === maximum && first.hasMore && first.nextCursor === first.data.at(-1)?.id,
        `${maximum} items, hasMore true, nextCursor the last item’s id`,
        first.exchange,
      );
      const second = await recordPage(report.id, {
        [limitParameter]: maximum,
        [cursorParameter]: first.nextCursor ?? '',
      });
      const seen = new Set([...first.data, ...second.data].map((item) => item.id));
      expectThat(
        second.data.length === 1 && !second.hasMore && second.nextCursor === null,
        'the one item left, hasMore false, nextCursor null',
        second.exchange,
      );
      expectThat(
        created.every((record) => seen.has(record.id)),
        `every one of the ${maximum + 1} records on the two pages`,
        second.exchange,
      );
    },
    slowMachine,
  );

  restCheck(
    ['EP-LIST-AFTER', 'EP-BEFORE-CURSOR', 'INF-SCHEMAS-ERROR-CODE-ONEOF-CURSOR_INVALID'],
    'a cursor from elsewhere is refused in either direction: another report’s record, a deleted record, another account’s record',
    async ({ skip }) => {
      const { report, newestFirst } = await reportWithRecords(2);
      const { report: other } = await createReport('Conformance other list');
      const { record: elsewhere } = await createRecord(other.id, { samples: [sample(1_700_000_000_000)] });
      const [deleted] = newestFirst;
      if (deleted === undefined) throw new Error('no record to delete');
      const removal = await call('deleteRecord', { reportId: report.id, recordId: deleted.id });
      expectOperationResponse('deleteRecord', removal, 200);
      const cursors = [elsewhere.id, deleted.id];
      const freeKey = currentTarget().keys.freeSecret;
      if (freeKey === null) return skip('the target names no key of a second (free) account (--free-key)');
      const { report: foreignReport } = await createReportWithKey(freeKey);
      const foreign = await call(
        'createRecord',
        { reportId: foreignReport },
        { key: freeKey, body: { samples: [sample(1_700_000_000_000)] } },
      );
      cursors.push((expectOperationResponse('createRecord', foreign, 201) as RecordObject).id);
      for (const cursor of cursors)
        for (const parameter of [cursorParameter, reverseCursorParameter]) {
          const exchange = await call(
            'listRecords',
            { reportId: report.id },
            { query: { [parameter]: cursor } },
          );
          expectError(exchange, { code: 'cursor_invalid', param: parameter }, 'listRecords');
        }
    },
    slowMachine,
  );

  restCheck(
    ['EP-LIST-REPORTS-STATUS-FILTER', 'EP-LIST-AFTER', 'EP-BEFORE-CURSOR'],
    'a status filter walked one item at a time, forward with after and back with before, holds only that status',
    async () => {
      const { report: older } = await createReport('Conformance filter older');
      const { report: between } = await createReport('Conformance filter between');
      const { report: newer } = await createReport('Conformance filter newer');
      for (const report of [older, newer]) {
        const archived = await call(
          'updateReport',
          { reportId: report.id },
          { body: { status: 'archived' } },
        );
        expectOperationResponse('updateReport', archived, 200);
      }
      const page = async (query: Record<string, string | number>) => {
        const exchange = await call(
          'listReports',
          {},
          { query: { status: 'archived', [limitParameter]: 1, ...query } },
        );
        return { exchange, ...expectListPage<Report>('listReports', exchange) };
      };
      const first = await page({});
      expectThat(
        idsOf(first.data) === newer.id && first.hasMore,
        `${newer.id} first, with more`,
        first.exchange,
      );
      const second = await page({ [cursorParameter]: first.nextCursor ?? '' });
      expectThat(
        idsOf(second.data) === older.id,
        `${older.id} next, skipping the draft ${between.id} between them`,
        second.exchange,
      );
      const back = await page({ [reverseCursorParameter]: older.id });
      expectThat(idsOf(back.data) === newer.id, `${newer.id} before ${older.id}`, back.exchange);
    },
    slowMachine,
  );
});

async function createReportWithKey(key: string): Promise<{ report: string }> {
  const exchange = await call('createReport', {}, { key, body: { title: 'Conformance foreign cursor' } });
  return { report: (expectOperationResponse('createReport', exchange, 201) as Report).id };
}
