import type { PublishedRecordRow, RecordRow, ReportRow } from '../rows.js';
import type { SqlExecutor } from '../sql-executor.js';
import type { Store } from '../store.js';
import type { OwnedTableShape, TableShape } from './columns.js';
import { column } from './columns.js';
import { ownedTable } from './owned-table.js';
import { selectOne, selectRows } from './table-statements.js';

type StoredReport = Omit<ReportRow, 'recordCount'> & { recordCount?: number };

const reportShape: OwnedTableShape<StoredReport> = {
  table: 'reports',
  cursorScope: [],
  columns: {
    id: column('id'),
    accountId: column('account_id'),
    title: column('title'),
    status: column('status'),
    createdAt: column('created_at', 'timestamp'),
    // Counted on read, so it can never disagree with the records themselves.
    recordCount: {
      name: 'record_count',
      kind: 'integer',
      derived: 'SELECT count(*) FROM records AS r WHERE r.account_id = t.account_id AND r.report_id = t.id',
    },
  },
};

// The feed's view of a record: `sample_count` is a stored generated column (migration 0003), so the samples stay unread.
const publishedRecordShape: TableShape<PublishedRecordRow> = {
  table: 'records',
  columns: {
    id: column('id'),
    title: column('title'),
    sampleCount: column('sample_count', 'integer'),
    createdAt: column('created_at', 'timestamp'),
    publishedAt: column('published_at', 'timestamp'),
  },
};

const recordShape: OwnedTableShape<RecordRow> = {
  table: 'records',
  // Records are listed per report: a cursor from another report's list names nothing here.
  cursorScope: ['reportId'],
  columns: {
    id: column('id'),
    accountId: column('account_id'),
    reportId: column('report_id'),
    status: column('status'),
    source: column('source'),
    streamId: column('stream_id'),
    title: column('title'),
    samples: column('samples', 'json'),
    createdAt: column('created_at', 'timestamp'),
    publishedAt: column('published_at', 'timestamp'),
  },
};

export const reportsTable = (executor: SqlExecutor): Store['reports'] => ({
  ...ownedTable<StoredReport, { status?: string }>(executor, reportShape),
  getById: (id) => selectOne<StoredReport>(executor, reportShape, 't.id = $1', [id]),
});

export const recordsTable = (executor: SqlExecutor): Store['records'] => ({
  ...ownedTable<RecordRow, { reportId: string }>(executor, recordShape),
  async appendSamples(accountId, id, samples) {
    // One statement per batch: the new samples are concatenated to the stored array inside the database. The status
    // test is in the same statement, so a publish that commits first leaves the record as it published it.
    const rows = await executor.query<{ sample_count: number }>(
      "UPDATE records SET samples = samples || $3::jsonb WHERE account_id = $1 AND id = $2 AND status = 'draft' " +
        'RETURNING jsonb_array_length(samples) AS sample_count',
      [accountId, id, JSON.stringify(samples)],
    );
    return rows[0] === undefined ? null : Number(rows[0].sample_count);
  },
  publishedWindow: (accountId, reportId, limit) =>
    selectRows(
      executor,
      publishedRecordShape,
      "t.account_id = $1 AND t.report_id = $2 AND t.status = 'published'",
      [accountId, reportId, limit],
      'ORDER BY t.published_at DESC, t.seq DESC LIMIT $3::integer',
    ),
});
