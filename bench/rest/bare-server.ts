// The bare side of the REST benchmark: one Fastify route per endpoint doing the same Ajv validation as the generated
// server, then the same storage work as the reference (on every backend, the in-memory test store included; or none,
// for diagnostics), returning the JSON the reference returned, with the new row's fields.
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { requestIdHeader } from '../../generated/server/plugin.js';
import { accountPlanMembers, apiPolicies } from '../../generated/types/facts.js';
import { validateCreateStreamRequest } from '../../generated/validators/standalone.js';
import { digest } from '../../reference/auth/secrets.js';
import { setSecurityHeaders } from '../../reference/http/response-headers.js';
import { type RateDecision, rateLimitHeaders } from '../../reference/rate-limiter.js';
import { newId } from '../../reference/services/ids.js';
import type { ReportRow, StreamRow } from '../../reference/storage/rows.js';
import type { SqlExecutor } from '../../reference/storage/sql-executor.js';
import type { Store } from '../../reference/storage/store.js';
import { accountsTable } from '../../reference/storage/tables/accounts.js';
import { reportsTable } from '../../reference/storage/tables/reports.js';
import { streamsTable } from '../../reference/storage/tables/streams.js';

/** What the bare routes store and read: the reference's own table code on a database, or nothing at all. */
export interface BareStorage {
  insertStream(row: StreamRow): Promise<StreamRow>;
  listReports(limit: number): Promise<{ items: Omit<ReportRow, 'recordCount'>[]; hasMore: boolean }>;
}

/** One account on `executor` owning `reportCount` reports; the routes write and read through the table code. */
export function sqlStorage(executor: SqlExecutor, reportCount: number): Promise<BareStorage> {
  const tables = {
    accounts: accountsTable(executor),
    reports: reportsTable(executor),
    streams: streamsTable(executor),
  };
  return storeStorage(tables, reportCount);
}

/**
 * One account owning `reportCount` reports in the bare side's own tables (a database's table code, or an in-memory test
 * store), written and read through the store's interface as the reference does. On the in-memory store the rows each
 * created stream leaves on the heap (and the collector's work over them) are then on both sides, so that ratio is the
 * generated server's and the hooks' overhead (issue 16), not the store's.
 */
export async function storeStorage(
  tables: Pick<Store, 'accounts' | 'reports' | 'streams'>,
  reportCount: number,
): Promise<BareStorage> {
  const accountId = newId('AccountId');
  const createdAt = new Date().toISOString();
  await tables.accounts.insert({ id: accountId, plan: 'paid', defaultRegion: 'bench', createdAt });
  for (let index = 0; index < reportCount; index += 1)
    await tables.reports.insert({
      id: newId('ReportId'),
      accountId,
      title: `Bench report ${index + 1}`,
      status: 'draft',
      createdAt,
    });
  return {
    insertStream: (row) => tables.streams.insert({ ...row, accountId }),
    listReports: async (limit) =>
      (await tables.reports.list(accountId, { limit })) ?? { items: [], hasMore: false },
  };
}

/** The http origin a bare server (or the reference's app) listens on. */
export function originOf(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no TCP address');
  return `http://${address.address}:${address.port}`;
}

/** No storage (diagnostics only): the stream is returned as built and the page is made of fixed rows. */
export function noStorage(reportCount: number): BareStorage {
  const createdAt = new Date().toISOString();
  const rows = Array.from({ length: reportCount }, (_, index) => ({
    id: newId('ReportId'),
    accountId: 'bench',
    title: `Bench report ${index + 1}`,
    status: 'draft',
    createdAt,
  }));
  return {
    insertStream: async (row) => row,
    listReports: async (limit) => ({ items: rows.slice(0, limit), hasMore: rows.length > limit }),
  };
}

export interface CapturedBodies {
  created: Record<string, unknown>;
  list: { data: Record<string, unknown>[] };
}

/** The paid plan's window with three requests taken, as the reference's rate-limit fields would state it. */
const paidLimit = accountPlanMembers.paid.requestsPerMinute;
const paidWindow: RateDecision = {
  allowed: true,
  limit: paidLimit,
  remaining: paidLimit - 3,
  windowSeconds: apiPolicies.rateLimit.windowSeconds,
  resetSeconds: apiPolicies.rateLimit.windowSeconds,
};

/**
 * The five headers the reference adds to every counted answer (Request-Id, the two rate-limit fields, nosniff,
 * no-store), built by the reference's own functions: for diagnostics only (`bench/measure/rest-inject.ts`), to show
 * how much of the gap is the response the spec asks for rather than the work behind it. The benchmark's ratios do
 * not use them.
 */
function addReferenceHeaders(reply: FastifyReply): void {
  reply.header(requestIdHeader, newId('RequestId'));
  reply.headers(rateLimitHeaders(paidWindow));
  setSecurityHeaders(reply);
}

export async function bareServer(
  host: string,
  basePath: string,
  bodies: CapturedBodies,
  storage: BareStorage,
  options: { withReferenceHeaders?: boolean } = {},
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  if (options.withReferenceHeaders === true)
    app.addHook('onRequest', (_request, reply, done) => {
      addReferenceHeaders(reply);
      done();
    });
  const sample = bodies.list.data[0];
  const reportUrlOf = (id: string) => String(sample?.reportUrl ?? '').replace(String(sample?.id), id);
  app.post(`${basePath}/streams`, async (request, reply) => {
    if (!validateCreateStreamRequest(request.body))
      return reply.code(400).send({ error: validateCreateStreamRequest.errors });
    const body = request.body as { title: string; quality?: string; format?: string };
    const row = await storage.insertStream({
      id: newId('StreamId'),
      accountId: '',
      title: body.title,
      status: 'idle',
      quality: body.quality ?? 'high',
      format: body.format ?? 'json',
      region: 'bench',
      streamKeyHash: digest(newId('StreamId')),
      subscriberCount: 0,
      metadata: {},
      startedAt: null,
      recordingReportId: null,
      createdAt: new Date().toISOString(),
    });
    return reply
      .code(201)
      .send({ ...bodies.created, id: row.id, title: row.title, createdAt: row.createdAt });
  });
  app.get(`${basePath}/reports`, async (request, reply) => {
    const limit = Number((request.query as { limit?: string }).limit ?? 100);
    const page = await storage.listReports(limit);
    const data = page.items.map((row) => ({
      id: row.id,
      object: 'report',
      title: row.title,
      status: row.status,
      recordCount: 0,
      reportUrl: reportUrlOf(row.id),
      createdAt: row.createdAt,
    }));
    return reply.code(200).send({ ...bodies.list, data, hasMore: page.hasMore });
  });
  await app.listen({ host, port: 0 });
  return app;
}
