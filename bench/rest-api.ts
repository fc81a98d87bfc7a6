// npx tsx bench/rest-api.ts [memory|pglite|postgres ...] — the reference service's POST /streams and GET /reports
// (a page of 100) against a bare Fastify route doing the same Ajv validation and the same storage work, returning the
// same JSON, on three backends: the in-memory test store (bare side: the same rows in an in-memory store of its own, so
// the ratio is the overhead of the generated server and the reference's hooks; a second bare side storing nothing is
// measured beside, not judged), PGlite and PostgreSQL through `pg` (bare side: the same INSERT or SELECT through the
// reference's table code on its own database). autocannon over loopback from a child process, alternating rounds.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { accountPlanMembers } from '../generated/types/facts.js';
import type { RunningService } from '../reference/index.js';
import { createApiKey } from '../reference/seed.js';
import { type BenchReport, median, type RatioCheck } from './harness.js';
import { type Backend, type BackendRun, backends } from './rest/backends.js';
import { bareServer, type CapturedBodies, originOf } from './rest/bare-server.js';
import {
  call,
  connections,
  type Endpoint,
  measure,
  type RunMeasure,
  requestsFor,
  requestsPerKey,
  within,
} from './rest/load.js';
import { LoadProcess } from './rest/load-process.js';

const host = '127.0.0.1';
/**
 * Many short rounds rather than a few long ones (wave 18): on this shared machine a side's cost moves by a third between
 * runs seconds apart, with no change in the process (no deoptimisation, the same collections), so what decides a ratio
 * is how many adjacent pairs it is the median of. The first round's runs warm up longer (the JIT's first versions);
 * later ones only open their connections again.
 */
const firstWarmupSeconds = 1;
const warmupSeconds = 0.5;
const measuredSeconds = 2;
const rounds = 10;
const reportsListed = 100;
/**
 * How long the bare side runs alone before the first round, to size that round's key pools: it is the faster side and
 * has no limiter. A fixed first guess was wrong both ways: 6,000 req/s put 459–486 requests on each key of a quiet
 * machine's first in-memory round (planned at most 400, the limit 500), while a pool far larger than needed is not free
 * either (with the embedded store each new key's first requests miss the key cache and read the database, which the
 * bare side never does: a pool sized for 6,000 req/s on PGlite's ~500 took its POST ratio from 0.87x to 0.62x).
 */
const rateProbeSeconds = 0.5;
/**
 * Headroom over the fastest rate seen when sizing a key pool, so a faster run than any before still stays under the
 * limit: on a loaded machine (load 10) one round ran 2.7 times as fast as another, and 1.5 let 970 requests meet 429.
 * More keys cost the in-memory store nothing; on the durable stores each new key's first request reads the database.
 */
const keyPoolHeadroom = 2;
const stopDeadlineMilliseconds = 10_000;

const createStreamBody = JSON.stringify({
  title: 'Pump 7 vibration',
  quality: 'high',
  format: 'json',
  metadata: { site: 'plant-3' },
});

const [createEndpoint, listEndpoint]: [Endpoint, Endpoint] = [
  { label: 'POST /streams', method: 'POST', path: '/streams', expectedStatus: 201, body: createStreamBody },
  {
    label: `GET /reports (page of ${reportsListed})`,
    method: 'GET',
    path: `/reports?limit=${reportsListed}`,
    expectedStatus: 200,
    body: undefined,
  },
];
const endpoints = [createEndpoint, listEndpoint];

interface Sides {
  reference: RunMeasure[];
  baseline: RunMeasure[];
  /** The bare route storing nothing, where the backend has one (not judged). */
  unstored: RunMeasure[];
}

interface KeyUse {
  keysUsed: number;
  heaviestKeyLoad: number;
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
    const { store, clock } = service.dependencies;
    keys.push((await createApiKey(store, clock, accountId, 'secret')).key);
  }
  return keys;
}

/** The real responses of both endpoints (after creating the reports listed), which the bare routes then return. */
async function capturedBodies(baseUrl: string, key: string): Promise<CapturedBodies> {
  for (let index = 0; index < reportsListed; index += 1) {
    const body = JSON.stringify({ title: `Bench report ${index + 1}` });
    const created = await call(`${baseUrl}/reports`, 'POST', key, body);
    if (created.status !== 201)
      throw new Error(`POST /reports answered ${created.status}: ${await created.text()}`);
  }
  const bodies: unknown[] = [];
  for (const endpoint of endpoints) {
    const response = await call(`${baseUrl}${endpoint.path}`, endpoint.method, key, endpoint.body);
    if (response.status !== endpoint.expectedStatus)
      throw new Error(`${endpoint.label} answered ${response.status}: ${await response.text()}`);
    // The point of rotating keys is to measure with the limiter on; make sure it is.
    if (response.headers.get('ratelimit') === null)
      throw new Error(`${endpoint.label} carries no RateLimit header`);
    bodies.push(await response.json());
  }
  return { created: bodies[0] as CapturedBodies['created'], list: bodies[1] as CapturedBodies['list'] };
}

/** Alternating rounds of one backend: per endpoint, warm-up then measured run on each side, the order flipped. */
async function measureBackend(
  run: BackendRun,
  use: KeyUse,
  generator: LoadProcess,
): Promise<Map<Endpoint, Sides>> {
  const service = run.reference;
  const paid = service.seeded?.accounts.paid;
  if (paid === undefined) throw new Error('a fresh data directory should have seeded a paid account');
  const baseUrl = new URL(service.urls.baseUrl);
  const basePath = baseUrl.pathname.replace(/\/+$/, '');
  const bodies = await capturedBodies(service.urls.baseUrl, paid.keys.secret.key);
  const bare = await bareServer(host, basePath, bodies, await run.bareStorage(reportsListed));
  const unstored =
    run.unstoredStorage === undefined
      ? undefined
      : await bareServer(host, basePath, bodies, await run.unstoredStorage(reportsListed));
  try {
    const results = new Map<Endpoint, Sides>(
      endpoints.map((endpoint) => [endpoint, { reference: [], baseline: [], unstored: [] }]),
    );
    // Later pools follow the fastest run seen of either side: the reference's alone was not enough (after a slow first
    // round at 664 req/s the next pool was sized for ~1,000 and the reference met 1,169 429s at 1,700).
    const fastestRate = new Map<Endpoint, number>();
    for (const endpoint of endpoints) {
      const requests = requestsFor(endpoint, basePath, [paid.keys.secret.key]);
      const probe = await generator.run(originOf(bare), requests, rateProbeSeconds, connections);
      fastestRate.set(endpoint, measure(probe, endpoint.expectedStatus).requestsPerSecond);
    }
    for (let round = 0; round < rounds; round += 1) {
      for (const [endpoint, sides] of results) {
        const expectedRate = (fastestRate.get(endpoint) ?? 0) * keyPoolHeadroom;
        // Warm-up and measured run each cycle through the whole list from its start, so the pool covers both.
        const keys = await freshKeys(
          service,
          paid.accountId,
          expectedRate * (firstWarmupSeconds + measuredSeconds),
        );
        use.keysUsed += keys.length;
        const requests = requestsFor(endpoint, basePath, keys);
        const order = [
          { origin: baseUrl.origin, runs: sides.reference },
          { origin: originOf(bare), runs: sides.baseline },
          ...(unstored === undefined ? [] : [{ origin: originOf(unstored), runs: sides.unstored }]),
        ];
        // Alternate which side goes first, so that drift within a round (heat, a neighbour's load) hits both alike.
        if (round % 2 === 1) order.reverse();
        for (const side of order) {
          const warmupFor = round === 0 ? firstWarmupSeconds : warmupSeconds;
          const warmup = await generator.run(side.origin, requests, warmupFor, connections);
          // The servers run on this thread's event loop (the load generator in its own process): how busy it was.
          const loopBefore = performance.eventLoopUtilization();
          const cpuBefore = process.cpuUsage();
          const measured = await generator.run(side.origin, requests, measuredSeconds, connections);
          const cpu = process.cpuUsage(cpuBefore);
          const serverBusy = performance.eventLoopUtilization(loopBefore).utilization;
          const run = measure(measured, endpoint.expectedStatus);
          const serverCpuMicroseconds = (cpu.user + cpu.system) / Math.max(1, run.completed);
          side.runs.push({ ...run, serverBusy, serverCpuMicroseconds });
          if (side.runs === sides.reference) {
            const perKey = Math.ceil((warmup.requests.sent + measured.requests.sent) / keys.length);
            use.heaviestKeyLoad = Math.max(use.heaviestKeyLoad, perKey);
          }
        }
        // The bare side is the faster one, so a pool sized by it holds the reference's next round too.
        const latest = Math.max(
          sides.reference.at(-1)?.requestsPerSecond ?? 0,
          sides.baseline.at(-1)?.requestsPerSecond ?? 0,
        );
        fastestRate.set(endpoint, Math.max(fastestRate.get(endpoint) ?? 0, latest));
      }
    }
    return results;
  } finally {
    await within(bare.close(), stopDeadlineMilliseconds, 'closing the bare server');
    if (unstored !== undefined)
      await within(unstored.close(), stopDeadlineMilliseconds, 'closing the unstored bare server');
  }
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');

function backendLines(backend: Backend, results: Map<Endpoint, Sides>, checks: RatioCheck[]): string[] {
  const lines: string[] = [`  ${backend.label}`];
  for (const [endpoint, sides] of results) {
    const baselineRate = median(sides.baseline.map((run) => run.requestsPerSecond));
    const baselineP99 = median(sides.baseline.map((run) => run.p99Milliseconds));
    const pairRatios = sides.reference.map(
      (run, index) => run.requestsPerSecond / (sides.baseline[index]?.requestsPerSecond ?? Number.NaN),
    );
    // The median of each round's pair, measured seconds apart: drift slower than a round cancels within its pair.
    const ratio = median(pairRatios);
    // Not judged: the same pairs by this process's CPU per response (the bare side's over the reference's).
    const cpuOf = (run: RunMeasure | undefined) => run?.serverCpuMicroseconds ?? Number.NaN;
    const cpuRatio = median(sides.reference.map((run, index) => cpuOf(sides.baseline[index]) / cpuOf(run)));
    for (const [server, runs] of [
      ['reference', sides.reference],
      ['bare Fastify', sides.baseline],
    ] as const) {
      const rate = median(runs.map((run) => run.requestsPerSecond));
      const p99 = median(runs.map((run) => run.p99Milliseconds));
      const completed = runs.reduce((sum, run) => sum + run.completed, 0);
      const unexpected = runs.reduce((sum, run) => sum + run.unexpected, 0);
      const detail = runs.flatMap((run) => run.unexpectedDetail).join(', ');
      const perRound = runs.map((run) => integer(run.requestsPerSecond)).join(' / ');
      const p99Ratio = baselineP99 === 0 ? 'n/a' : `${(p99 / baselineP99).toFixed(2)}x`;
      const busy = `${Math.round(100 * median(runs.map((run) => run.serverBusy ?? Number.NaN)))}%`;
      const cpu = integer(median(runs.map(cpuOf)));
      const cpuShown = `${(server === 'reference' ? cpuRatio : 1).toFixed(2)}x`;
      lines.push(
        `    ${(server === 'reference' ? endpoint.label : '').padEnd(26)} ${server.padEnd(13)} ${integer(rate).padStart(7)} ${integer(p99).padStart(6)}  ${`${(server === 'reference' ? ratio : rate / baselineRate).toFixed(2)}x`.padStart(6)} ${p99Ratio.padStart(6)} ${busy.padStart(5)} ${cpu.padStart(6)} ${cpuShown.padStart(6)}  ${perRound.padEnd(80)} ${integer(unexpected)} of ${integer(completed)}${detail === '' ? '' : ` (${detail})`}`,
      );
    }
    if (sides.unstored.length > 0) {
      const unstoredRate = median(sides.unstored.map((run) => run.requestsPerSecond));
      const perRound = sides.unstored.map((run) => integer(run.requestsPerSecond)).join(' / ');
      const against = median(sides.reference.map((run) => run.requestsPerSecond)) / unstoredRate;
      lines.push(
        `    ${''.padEnd(26)} ${'bare, no rows'.padEnd(13)} ${integer(unstoredRate).padStart(7)} ${''.padStart(6)}  ${''.padStart(6)} ${''.padStart(6)} ${''.padStart(5)} ${''.padStart(6)} ${''.padStart(6)}  ${perRound.padEnd(80)} not judged: reference/this ${against.toFixed(2)}x, the store's own work included`,
      );
    }
    checks.push({
      label: `REST ${endpoint.label}, ${backend.label}`,
      candidate: 'reference',
      baseline: backend.baseline,
      ratio,
      low: Math.min(...pairRatios),
      high: Math.max(...pairRatios),
      target: backend.target,
      direction: 'at-least',
    });
  }
  return lines;
}

async function runBackend(
  backend: Backend,
  use: KeyUse,
  generator: LoadProcess,
): Promise<Map<Endpoint, Sides> | string> {
  const temporaryRoot = path.join(import.meta.dirname, '..', '.tmp');
  await mkdir(temporaryRoot, { recursive: true });
  const dataDir = await mkdtemp(path.join(temporaryRoot, `bench-rest-${backend.name}-`));
  let opened: BackendRun | { unavailable: string } | undefined;
  try {
    opened = await backend.open(dataDir, host);
    if ('unavailable' in opened) return opened.unavailable;
    return await measureBackend(opened, use, generator);
  } finally {
    if (opened !== undefined && !('unavailable' in opened)) {
      const run = opened;
      await within(run.reference.stop(), stopDeadlineMilliseconds, 'stopping the service').catch(() => {});
      await run.close();
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function run(names: readonly string[] = []): Promise<BenchReport> {
  const chosen = backends.filter((backend) => names.length === 0 || names.includes(backend.name));
  const checks: RatioCheck[] = [];
  const use: KeyUse = { keysUsed: 0, heaviestKeyLoad: 0 };
  const lines: string[] = [];
  const generator = new LoadProcess();
  try {
    for (const backend of chosen) {
      const results = await runBackend(backend, use, generator);
      if (typeof results === 'string') lines.push(`  ${backend.label}: not run (${results})`);
      else lines.push(...backendLines(backend, results, checks));
    }
  } finally {
    await generator.close();
  }
  const header = `    ${'endpoint'.padEnd(26)} ${'server'.padEnd(13)} ${'req/s'.padStart(7)} ${'p99 ms'.padStart(6)}  ${'ratio'.padStart(6)} ${'p99 x'.padStart(6)} ${'busy'.padStart(5)} ${'cpu µs'.padStart(6)} ${'cpu x'.padStart(6)}  ${'req/s per round'.padEnd(80)} unexpected responses`;
  const text = [
    'REST API over loopback: the reference service against a bare Fastify route doing the same validation and the same storage work, returning the same JSON',
    `${connections} connections, ${warmupSeconds} s warm-up + ${measuredSeconds} s measured per run (${firstWarmupSeconds} s in the first round), ${rounds} rounds alternating reference and bare; rates are medians over rounds; the judged ratio is the median of each round's reference/bare`,
    header,
    ...lines,
    `Fairness: both sides validate with the same Ajv code; on PGlite and PostgreSQL both run the same INSERT (POST) or SELECT of a page (GET) through the reference's table code on a database of their own (PostgreSQL: two databases of one throwaway server, fsync off); against the in-memory store both keep the created streams in an in-memory store (the bare side's of its own) and read the page from it, and "bare, no rows" shows the same route storing nothing. The reference adds the generated server, authentication (a key lookup), the rate window and its services. Its paid plan admits ${accountPlanMembers.paid.requestsPerMinute} requests a minute per key, so each run rotates the request over fresh secret keys (${integer(use.keysUsed)} keys in all, about ${integer(use.heaviestKeyLoad)} requests on the busiest, planned at most ${requestsPerKey}): none is refused.`,
    'p99: autocannon records whole milliseconds and only the latencies of 2xx responses.',
    "cpu µs: this process's CPU time per response (the servers', and PGlite's thread's; not the load generator's, nor PostgreSQL's), median over rounds; cpu x: the median over rounds of the bare side's over the reference's, not judged. Time a server spent off the core (a neighbour's turn) is not in it, so it moves less with the machine's load than a rate.",
    "busy: the share of each measured run the servers' event loop was working (median over rounds); well below 100 %, the rate was set partly by the load generator (a process of its own on the same cores) and the scheduler, not by the server alone.",
    `Machine: ${availableParallelism()} cores shared with other work (load average at the end ${loadavg()
      .map((value) => value.toFixed(2))
      .join(
        ' ',
      )}), the load generator (autocannon) in a child process of its own; compare the ratios, not the absolute numbers.`,
    'Reproduce: npx tsx bench/rest-api.ts [memory|pglite|postgres ...]',
  ].join('\n');
  return { text, checks };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await run(process.argv.slice(2));
  console.log(report.text);
  const { formatCheck } = await import('./harness.js');
  for (const check of report.checks) console.log(`  ${formatCheck(check)}`);
}
