import { parameterDefaults } from '../../generated/types/facts.js';
import type {
  CreateReportRequestBody,
  ListReportsParameters,
  UpdateReportRequestBody,
} from '../../generated/types/operations.js';
import type { Report, ReportList } from '../../generated/types/schemas.js';
import { wireShaped } from '../../runtime/wire-shaped.js';
import { isoTime } from '../clock.js';
import { problem } from '../problems.js';
import type { ReportRow } from '../storage/rows.js';
import type { ServiceContext } from './context.js';
import { recordEvent } from './events.js';
import { found } from './found.js';
import { newId } from './ids.js';
import { listEnvelope, pageRequest } from './pagination.js';
import { eventDataForRecord, recordObject } from './record-object.js';
import { reportFeedUrl, reportFeedUrls } from './urls.js';

export interface ReportContext extends ServiceContext {
  /** The getReportFeed operation's path template, from the generated route table. */
  feedPathTemplate: string;
}

type StoredReport = Omit<ReportRow, 'recordCount'> & { recordCount?: number };

export function reportObject(context: ReportContext, row: StoredReport): Report {
  return reportObjectWith(row, reportFeedUrl(context.urls, context.feedPathTemplate, row.id));
}

function reportObjectWith(row: StoredReport, reportUrl: string): Report {
  return {
    id: row.id,
    object: 'report',
    title: row.title,
    status: row.status as Report['status'],
    recordCount: row.recordCount ?? 0,
    reportUrl,
    createdAt: row.createdAt,
  };
}

/** The report's row, or the 404 for it: a missing report and one deleted during a change are answered alike. */
function reportFound<Row>(row: Row | null, reportId: string): Row {
  return found(
    row,
    // Stryker disable next-line StringLiteral: equivalent, the kind only words the free-text message, which stays non-empty without it
    'report',
    reportId,
    'reportId',
  );
}

export async function requireReport(context: ServiceContext, reportId: string): Promise<StoredReport> {
  return reportFound(await context.store.reports.get(context.accountId, reportId), reportId);
}

export async function createReport(context: ReportContext, body: CreateReportRequestBody): Promise<Report> {
  const row = await context.store.reports.insert({
    id: newId('ReportId'),
    accountId: context.accountId,
    title: body.title,
    status: 'draft',
    createdAt: isoTime(context.clock),
  });
  // A new report has no records: reportObject counts a missing recordCount as 0 (no spread copy of the row).
  return reportObject(context, row);
}

export async function listReports(
  context: ReportContext,
  query: NonNullable<ListReportsParameters['query']>,
): Promise<ReportList> {
  // Stryker disable next-line StringLiteral: equivalent, the generated query validation already fills in the spec's default limit
  const request = pageRequest(query, parameterDefaults['listReports.limit']);
  const page = await context.store.reports.list(context.accountId, request, { status: query.status });
  const urlOf = reportFeedUrls(context.urls, context.feedPathTemplate);
  // The envelope and each item are literals of exactly the schema's fields, in its order: JSON.stringify writes them.
  return wireShaped(
    listEnvelope(
      page,
      request,
      (row) => reportObjectWith(row, urlOf(row.id)),
      (row) => row.id,
    ),
  );
}

export async function updateReport(
  context: ReportContext,
  reportId: string,
  body: UpdateReportRequestBody,
): Promise<Report> {
  const current = await requireReport(context, reportId);
  if (current.status === 'archived')
    throw problem(
      'report_archived',
      'The report is archived.',
      body.status === undefined ? undefined : 'status',
    );
  const updated = await context.store.reports.update(context.accountId, reportId, body);
  return reportObject(context, reportFound(updated, reportId));
}

/** Deletes the report and its records in one transaction; each published record deleted emits report.deleted. */
export async function deleteReport(context: ReportContext, reportId: string) {
  await requireReport(context, reportId);
  await context.store.transaction(async (store) => {
    for (
      let page = await store.records.list(context.accountId, { limit: 100 }, { reportId });
      // Stryker disable next-line ConditionalExpression: the `page !== null` → true mutant is equivalent (a list without a cursor is never null); the directive also drops the killed true/false mutants of the whole condition and of `page.items.length > 0` (an endless loop; no record deleted: check 80)
      page !== null && page.items.length > 0;
    ) {
      for (const record of page.items) {
        await store.records.delete(context.accountId, record.id);
        if (record.status === 'published') {
          await recordEvent(
            store,
            context.clock,
            context.accountId,
            'report.deleted',
            eventDataForRecord(recordObject(record)),
          );
        }
      }
      page = await store.records.list(context.accountId, { limit: 100 }, { reportId });
    }
    await store.reports.delete(context.accountId, reportId);
  });
  return { id: reportId, object: 'report' as const, deleted: true as const };
}
