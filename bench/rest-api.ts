// npx tsx bench/rest-api.ts — the reference service's POST /streams and GET /reports (a page of 100) against a bare
// Fastify route doing the same durable work (the same Ajv validation and the same INSERT or SELECT through its own
// PGlite, with the reference's own table code) and returning the same JSON, driven by autocannon over loopback in
// alternating rounds.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { accountPlanMembers } from '../generated/types/facts.js';
import { validateCreateStreamRequest } from '../generated/validators/standalone.js';
import { digest } from '../reference/auth/secrets.js';
import { type RunningService, start } from '../reference/index.js';
import { createApiKey } from '../reference/seed.js';
import { newId } from '../reference/services/ids.js';
import { openExecutor } from '../reference/storage/open-store.js';
import type { SqlExecutor } from '../reference/storage/sql-executor.js';
import { accountsTable } from '../reference/storage/tables/accounts.js';
import { reportsTable } from '../reference/storage/tables/reports.js';
import { streamsTable } from '../reference/storage/tables/streams.js';
import type { BenchReport, RatioCheck } from './harness.js';

const host = '127.0.0.1';
const connections = 10;
const warmupSeconds = 1;
const measuredSeconds = 5;
const rounds = 3;
const reportsListed = 100;
/** Issue 16: durable writes and reads at least this share of a bare route doing the same database work. */
const targetRatio = 0.7;
/** Requests sent with one key over a whole run: below the paid plan's limit, so no request of a run meets it. */
const requestsPerKey = 400;
/** The first guess of the reference's rate, before any run measured it; later pools follow the fastest run seen. */
const initialRateGuess = 4000;
/** Headroom over the expected rate when sizing a key pool, so a faster run than the last still stays under the limit. */
const keyPoolHeadroom = 1.5;
const stopDeadlineMilliseconds = 10_000;

type Method = 'GET' | 'POST';

interface Endpoint {
  label: string;
  method: Method;
  /** Path after the base path (`/v2`). */
  path: string;
  expectedStatus: number;
  body: string | undefined;
}

const createStreamBody = JSON.stringify({
  title: 'Pump 7 vibration',
  quality: 'high',
  format: 'json',
  metadata: { site: 'plant-3' },
});

const endpoints: readonly Endpoint[] = [
  { label: 'POST /streams', method: 'POST', path: '/streams', expectedStatus: 201, body: createStreamBody },
  {
    label: `GET /reports (page of ${reportsListed})`,
    method: 'GET',
    path: `/reports?limit=${reportsListed}`,
    expectedStatus: 200,
    body: undefined,
  },
];

interface RunMeasure {
  requestsPerSecond: number;
  p99Milliseconds: number;
  completed: number;
  /** Responses with another status than the endpoint's, plus connection errors and timeouts. */
  unexpected: number;
  unexpectedDetail: string[];
}

interface Sides {
  reference: RunMeasure[];
  baseline: RunMeasure[];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Rejects after `milliseconds` so a stuck close cannot keep the bench alive. */
async function within<T>(task: Promise<T>, milliseconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${milliseconds} ms`)), milliseconds);
  });
  try {
    return await Promise.race([task, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** One autocannon run; the load generator gets its own worker thread so it does not share the servers' event loop. */
async function load(
  origin: string,
  requests: autocannon.Request[],
  seconds: number,
): Promise<autocannon.Result> {
  let instance: autocannon.Instance | undefined;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      { url: origin, connections, duration: seconds, workers: 1, requests },
      (error: unknown, result) => (error === null || error === undefined ? resolve(result) : reject(error)),
    );
  });
  try {
    return await within(finished, (seconds + 20) * 1000, 'an autocannon run');
  } catch (error) {
    instance?.stop();
    throw error;
  }
}

function measure(result: autocannon.Result, expectedStatus: number): RunMeasure {
  const counts = Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => ({
    status,
    count: stats.count ?? 0,
  }));
  const others = counts.filter((entry) => entry.status !== String(expectedStatus) && entry.count > 0);
  const unexpectedDetail = others.map((entry) => `${entry.count}×${entry.status}`);
  if (result.errors > 0) unexpectedDetail.push(`${result.errors} errors (${result.timeouts} timeouts)`);
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p99Milliseconds: result.latency.p99,
    completed: result.requests.total,
    unexpected: others.reduce((sum, entry) => sum + entry.count, 0) + result.errors,
    unexpectedDetail,
  };
}

/** The same request with each key in turn: autocannon's connections cycle through the list, spreading the load. */
function requestsFor(endpoint: Endpoint, basePath: string, keys: readonly string[]): autocannon.Request[] {
  return keys.map((key) => ({
    method: endpoint.method,
    path: `${basePath}${endpoint.path}`,
    headers: {
      authorization: `Bearer ${key}`,
      ...(endpoint.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(endpoint.body === undefined ? {} : { body: endpoint.body }),
  }));
}

/** Fresh secret keys of one account, enough that `expectedRequests` spread over them stay within each key's window. */
async function freshKeys(
  service: RunningService,
  accountId: string,
  expectedRequests: number,
): Promise<string[]> {
  const count = Math.max(connections, Math.ceil(expectedRequests / requestsPerKey));
  const keys: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const created = await createApiKey(
      service.dependencies.store,
      service.dependencies.clock,
      accountId,
      'secret',
    );
    keys.push(created.key);
  }
  return keys;
}

async function call(url: string, method: Method, key: string, body?: string): Promise<Response> {
  return fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body }),
  });
}

/** The real responses of both endpoints, which the bare routes then return as they are. */
async function capturedBodies(baseUrl: string, key: string): Promise<Map<Endpoint, unknown>> {
  for (let index = 0; index < reportsListed; index += 1) {
    const created = await call(
      `${baseUrl}/reports`,
      'POST',
      key,
      JSON.stringify({ title: `Bench report ${index + 1}` }),
    );
    if (created.status !== 201)
      throw new Error(`POST /reports answered ${created.status}: ${await created.text()}`);
  }
  const bodies = new Map<Endpoint, unknown>();
  for (const endpoint of endpoints) {
    const response = await call(`${baseUrl}${endpoint.path}`, endpoint.method, key, endpoint.body);
    if (response.status !== endpoint.expectedStatus)
      throw new Error(`${endpoint.label} answered ${response.status}: ${await response.text()}`);
    // The point of rotating keys is to measure with the limiter on; make sure it is.
    if (response.headers.get('ratelimit') === null)
      throw new Error(`${endpoint.label} carries no RateLimit header`);
    bodies.set(endpoint, await response.json());
  }
  return bodies;
}

interface BareDatabase {
  executor: SqlExecutor;
  accountId: string;
}

/** The bare side's own PGlite, migrated like the reference's, with one account owning the rows it writes and reads. */
async function bareDatabase(dataDir: string): Promise<BareDatabase> {
  const executor = await openExecutor({ kind: 'embedded', dataDir });
  const accountId = newId('AccountId');
  await accountsTable(executor).insert({
    id: accountId,
    plan: 'paid',
    defaultRegion: 'bench',
    createdAt: new Date().toISOString(),
  });
  const reports = reportsTable(executor);
  for (let index = 0; index < reportsListed; index += 1) {
    await reports.insert({
      id: newId('ReportId'),
      accountId,
      title: `Bench report ${index + 1}`,
      status: 'draft',
      createdAt: new Date().toISOString(),
    });
  }
  return { executor, accountId };
}

/**
 * The same work without the generated server, authentication, rate window or services: the standalone validator on
 * the body, then the reference's own table code on PGlite, then the captured JSON with the new row's fields.
 */
async function bareServer(
  basePath: string,
  bodies: Map<Endpoint, unknown>,
  database: BareDatabase,
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  const streams = streamsTable(database.executor);
  const reports = reportsTable(database.executor);
  const [createEndpoint, listEndpoint] = endpoints;
  const createdBody = bodies.get(createEndpoint as Endpoint) as Record<string, unknown>;
  const listBody = bodies.get(listEndpoint as Endpoint) as { data: Record<string, unknown>[] };
  const reportUrlOf = (id: string) =>
    String(listBody.data[0]?.reportUrl ?? '').replace(String(listBody.data[0]?.id), id);
  app.post(`${basePath}/streams`, async (request, reply) => {
    if (!validateCreateStreamRequest(request.body))
      return reply.code(400).send({ error: validateCreateStreamRequest.errors });
    const body = request.body as { title: string; quality?: string; format?: string };
    const row = await streams.insert({
      id: newId('StreamId'),
      accountId: database.accountId,
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
    return reply.code(201).send({ ...createdBody, id: row.id, title: row.title, createdAt: row.createdAt });
  });
  app.get(`${basePath}/reports`, async (request, reply) => {
    const limit = Number((request.query as { limit?: string }).limit ?? reportsListed);
    const page = await reports.list(database.accountId, { limit });
    const data = (page?.items ?? []).map((row) => ({
      id: row.id,
      object: 'report',
      title: row.title,
      status: row.status,
      recordCount: row.recordCount ?? 0,
      reportUrl: reportUrlOf(row.id),
      createdAt: row.createdAt,
    }));
    return reply.code(200).send({ ...listBody, data, hasMore: page?.hasMore ?? false });
  });
  await app.listen({ host, port: 0 });
  return app;
}

function originOf(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the bare server has no TCP address');
  return `http://${host}:${address.port}`;
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');

function formatReport(results: Map<Endpoint, Sides>, keysUsed: number, heaviestKeyLoad: number): BenchReport {
  const checks: RatioCheck[] = [];
  const header = `  ${'endpoint'.padEnd(26)} ${'server'.padEnd(14)} ${'req/s'.padStart(8)} ${'p99 ms'.padStart(8)}  ${'req/s ratio'.padStart(11)} ${'p99 ratio'.padStart(9)}  ${'req/s per round'.padEnd(24)} unexpected responses`;
  const lines: string[] = [];
  const verdicts: string[] = [];
  for (const [endpoint, sides] of results) {
    const rows = [
      ['reference', sides.reference],
      ['bare Fastify', sides.baseline],
    ] as const;
    const baselineRate = median(sides.baseline.map((run) => run.requestsPerSecond));
    const baselineP99 = median(sides.baseline.map((run) => run.p99Milliseconds));
    rows.forEach(([server, runs], index) => {
      const rate = median(runs.map((run) => run.requestsPerSecond));
      const p99 = median(runs.map((run) => run.p99Milliseconds));
      const completed = runs.reduce((sum, run) => sum + run.completed, 0);
      const unexpected = runs.reduce((sum, run) => sum + run.unexpected, 0);
      const detail = runs.flatMap((run) => run.unexpectedDetail).join(', ');
      const perRound = runs.map((run) => integer(run.requestsPerSecond)).join(' / ');
      lines.push(
        `  ${(index === 0 ? endpoint.label : '').padEnd(26)} ${server.padEnd(14)} ${integer(rate).padStart(8)} ${integer(p99).padStart(8)}  ${`${(rate / baselineRate).toFixed(2)}x`.padStart(11)} ${(baselineP99 === 0 ? 'n/a' : `${(p99 / baselineP99).toFixed(2)}x`).padStart(9)}  ${perRound.padEnd(24)} ${integer(unexpected)} of ${integer(completed)}${detail === '' ? '' : ` (${detail})`}`,
      );
    });
    const ratio = median(sides.reference.map((run) => run.requestsPerSecond)) / baselineRate;
    const perRoundRatios = sides.reference.map(
      (run, index) => run.requestsPerSecond / (sides.baseline[index]?.requestsPerSecond ?? Number.NaN),
    );
    checks.push({
      label: `REST ${endpoint.label}, durable (PGlite)`,
      candidate: 'reference',
      baseline: 'bare Fastify + same Ajv + same SQL through PGlite',
      ratio,
      low: Math.min(...perRoundRatios),
      high: Math.max(...perRoundRatios),
      target: targetRatio,
      direction: 'at-least',
    });
    verdicts.push(
      `  ${endpoint.label}: ${ratio.toFixed(2)}x of the bare route, ${ratio >= targetRatio ? 'meets' : 'misses'} the target of ${targetRatio}x`,
    );
  }
  const paidLimit = accountPlanMembers.paid.requestsPerMinute;
  const text = [
    `REST API over loopback: the reference service against a bare Fastify route doing the same validation and the same SQL on its own PGlite, returning the same JSON`,
    `${connections} connections, ${warmupSeconds} s warm-up + ${measuredSeconds} s measured per run, ${rounds} rounds alternating reference and bare; medians over rounds; ratios reference/bare`,
    header,
    ...lines,
    ...verdicts,
    `Fairness: both sides validate with the same Ajv code and run the same INSERT (POST) or SELECT of a page (GET) through the reference's table code on an embedded PGlite of their own; the reference adds the generated server, authentication (a key lookup), the rate window and its services. Its paid plan admits ${paidLimit} requests a minute per key, so each run rotates the request over fresh secret keys of the seeded paid account (${integer(keysUsed)} keys in all, about ${integer(heaviestKeyLoad)} requests on the busiest, planned at most ${requestsPerKey}): every request is still authenticated and counted against its key's window, none is refused. Both servers get the same requests (headers and body).`,
    'p99: autocannon records whole milliseconds and only the latencies of 2xx responses.',
    `Machine: ${availableParallelism()} cores shared with other work, the load generator on its own worker thread in this process; compare the ratios, not the absolute numbers.`,
    'Reproduce: npx tsx bench/rest-api.ts',
  ].join('\n');
  return { text, checks };
}

export async function run(): Promise<BenchReport> {
  const temporaryRoot = path.join(import.meta.dirname, '..', '.tmp');
  await mkdir(temporaryRoot, { recursive: true });
  const dataDir = await mkdtemp(path.join(temporaryRoot, 'bench-rest-api-'));
  let service: RunningService | undefined;
  let bare: FastifyInstance | undefined;
  let bareData: BareDatabase | undefined;
  try {
    service = await start({ dataDir, host });
    const paid = service.seeded?.accounts.paid;
    if (paid === undefined) throw new Error('a fresh data directory should have seeded a paid account');
    const baseUrl = new URL(service.urls.baseUrl);
    const basePath = baseUrl.pathname.replace(/\/+$/, '');
    const bodies = await capturedBodies(service.urls.baseUrl, paid.keys.secret.key);
    bareData = await bareDatabase(path.join(dataDir, 'bare-database'));
    bare = await bareServer(basePath, bodies, bareData);
    const bareOrigin = originOf(bare);
    const results = new Map<Endpoint, Sides>(
      endpoints.map((endpoint) => [endpoint, { reference: [], baseline: [] }]),
    );
    const fastestRate = new Map<Endpoint, number>();
    let keysUsed = 0;
    let heaviestKeyLoad = 0;
    for (let round = 0; round < rounds; round += 1) {
      for (const endpoint of endpoints) {
        const sides = results.get(endpoint);
        if (sides === undefined) throw new Error(`no results for ${endpoint.label}`);
        const expectedRate = (fastestRate.get(endpoint) ?? initialRateGuess) * keyPoolHeadroom;
        // Warm-up and measured run each cycle through the whole list from its start, so the pool covers both.
        const keys = await freshKeys(
          service,
          paid.accountId,
          expectedRate * (warmupSeconds + measuredSeconds),
        );
        keysUsed += keys.length;
        const requests = requestsFor(endpoint, basePath, keys);
        const sidesInOrder = [
          { origin: baseUrl.origin, runs: sides.reference },
          { origin: bareOrigin, runs: sides.baseline },
        ];
        // Alternate which side goes first, so that drift within a round (heat, a neighbour's load) hits both alike.
        if (round % 2 === 1) sidesInOrder.reverse();
        for (const side of sidesInOrder) {
          const warmup = await load(side.origin, requests, warmupSeconds);
          const measured = await load(side.origin, requests, measuredSeconds);
          side.runs.push(measure(measured, endpoint.expectedStatus));
          if (side.runs === sides.reference) {
            const perKey = Math.ceil((warmup.requests.sent + measured.requests.sent) / keys.length);
            heaviestKeyLoad = Math.max(heaviestKeyLoad, perKey);
          }
        }
        const latest = sides.reference[sides.reference.length - 1]?.requestsPerSecond ?? 0;
        fastestRate.set(endpoint, Math.max(fastestRate.get(endpoint) ?? 0, latest));
      }
    }
    return formatReport(results, keysUsed, heaviestKeyLoad);
  } finally {
    const stopping: Promise<unknown>[] = [];
    if (bare !== undefined)
      stopping.push(within(bare.close(), stopDeadlineMilliseconds, 'closing the bare server'));
    if (service !== undefined)
      stopping.push(within(service.stop(), stopDeadlineMilliseconds, 'stopping the service'));
    await Promise.allSettled(stopping);
    await bareData?.executor.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await run()).text);
