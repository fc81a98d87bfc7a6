import type { StreamRow } from '../rows.js';
import type { SqlExecutor } from '../sql-executor.js';
import type { Store } from '../store.js';
import type { OwnedTableShape } from './columns.js';
import { column } from './columns.js';
import { ownedTable } from './owned-table.js';
import { selectOne, selectRows, updateRows } from './table-statements.js';

const streamShape: OwnedTableShape<StreamRow> = {
  table: 'streams',
  cursorScope: [],
  columns: {
    id: column('id'),
    accountId: column('account_id'),
    title: column('title'),
    status: column('status'),
    quality: column('quality'),
    format: column('format'),
    region: column('region'),
    streamKeyHash: column('stream_key_hash'),
    subscriberCount: column('subscriber_count', 'integer'),
    metadata: column('metadata', 'json'),
    startedAt: column('started_at', 'timestamp'),
    recordingReportId: column('recording_report_id'),
    createdAt: column('created_at', 'timestamp'),
  },
};

export function streamsTable(executor: SqlExecutor): Store['streams'] {
  return {
    ...ownedTable<StreamRow, { status?: string }>(executor, streamShape),
    getById: (id) => selectOne<StreamRow>(executor, streamShape, 't.id = $1', [id]),
    // Conditional on the current status, so two nodes racing for one stream cannot both set it live.
    setLive: async (id, startedAt) =>
      (
        await updateRows<StreamRow>(
          executor,
          streamShape,
          "status = 'live', started_at = $2::timestamptz",
          "t.id = $1 AND t.status = 'idle'",
          [id, startedAt],
        )
      )[0] ?? null,
    setIdle: async (id) =>
      (
        await updateRows<StreamRow>(
          executor,
          streamShape,
          "status = 'idle', started_at = NULL",
          "t.id = $1 AND t.status = 'live'",
          [id],
        )
      )[0] ?? null,
    listLive: () => selectRows<StreamRow>(executor, streamShape, "t.status = 'live'", [], 'ORDER BY t.seq'),
    resetSubscriberCounts: async () =>
      (
        await updateRows<StreamRow>(
          executor,
          streamShape,
          'subscriber_count = 0',
          't.subscriber_count <> 0',
          [],
        )
      ).length,
  };
}
