import type { RecordRow, ReportRow } from '../rows.js';
import type { SqlExecutor } from '../sql-executor.js';
import type { Store } from '../store.js';
import type { OwnedTableShape } from './columns.js';
import { column } from './columns.js';
import { ownedTable } from './owned-table.js';
import { selectOne } from './table-statements.js';

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

export const recordsTable = (executor: SqlExecutor): Store['records'] =>
  ownedTable<RecordRow, { reportId: string }>(executor, recordShape);
