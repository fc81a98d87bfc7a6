// npx tsx bench/measure/rest-cpu.ts [rounds] (SIDE=reference|bare|unstored, OPERATION=POST|GET to narrow it; PERF=<dir>
// with `node --perf-basic-prof --import tsx` to record each measured run with Linux perf, read by perf-summary.ts) — CPU time per request of the reference (in-memory
// store), of the bare Fastify route keeping the same rows in an in-memory store, and of the bare route storing nothing, POST /streams and GET /reports?limit=100: the server's process CPU (process.cpuUsage) over a
// fixed number of requests sent by autocannon in a child process, so the load generator's CPU is not counted. On a
// shared machine a CPU cost per request moves much less with the neighbours' load than a wall-clock rate does
// (issue 16). The bare side's CPU over the reference's is the ratio the rates would have on an otherwise idle core.
// Beside it, per request: the collector's pauses (a lead on allocation) and the time the event loop was working.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { start } from '../../reference/index.js';
import { createApiKey } from '../../reference/seed.js';
import { createMemoryStore } from '../../reference/storage/testing/memory-store.js';
import { median } from '../harness.js';
import { bareServer, type CapturedBodies, noStorage, originOf, storeStorage } from '../rest/bare-server.js';
import { call, type Endpoint, requestsFor } from '../rest/load.js';
import { drive } from './child-load.js';
import { recordPerf } from './perf-record.js';

/** Milliseconds the process spent in garbage collection so far (every kind), to charge each run its own share. */
let collecting = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) collecting += entry.duration;
}).observe({ entryTypes: ['gc'] });

const rounds = Number(process.argv[2] ?? 5);
const sideNames = ['reference', 'bare', 'unstored'] as const;
type Side = (typeof sideNames)[number];
const only = sideNames.find((side) => side === process.env.SIDE);
const operation = process.env.OPERATION;
const requestsPerRun = Number(process.env.REQUESTS ?? 6000);
const perfDir = process.env.PERF;
const host = '127.0.0.1';
const endpoints: Endpoint[] = [
  {
    label: 'POST /streams',
    method: 'POST',
    path: '/streams',
    expectedStatus: 201,
    body: JSON.stringify({
      title: 'Pump 7 vibration',
      quality: 'high',
      format: 'json',
      metadata: { site: 'plant-3' },
    }),
  },
  {
    label: 'GET /reports?limit=100',
    method: 'GET',
    path: '/reports?limit=100',
    expectedStatus: 200,
    body: undefined,
  },
];

const root = path.join(import.meta.dirname, '..', '..', '.tmp');
await mkdir(root, { recursive: true });
const dataDir = await mkdtemp(path.join(root, 'rest-cpu-'));
const service = await start({ dataDir, host, store: createMemoryStore() });
const paid = service.seeded?.accounts.paid;
if (paid === undefined) throw new Error('no paid account');
const base = new URL(service.urls.baseUrl);
const basePath = base.pathname.replace(/\/+$/, '');
for (let index = 0; index < 100; index += 1)
  await call(
    `${service.urls.baseUrl}/reports`,
    'POST',
    paid.keys.secret.key,
    JSON.stringify({ title: `Bench report ${index + 1}` }),
  );
const bodies = [];
for (const endpoint of endpoints)
  bodies.push(
    await (
      await call(
        `${service.urls.baseUrl}${endpoint.path}`,
        endpoint.method,
        paid.keys.secret.key,
        endpoint.body,
      )
    ).json(),
  );
const captured = { created: bodies[0], list: bodies[1] } as CapturedBodies;
// The bench's baseline keeps the created rows in an in-memory store of its own, as the reference does; `unstored` is
// the same route storing nothing, to show the store's own share.
const bare = await bareServer(host, basePath, captured, await storeStorage(createMemoryStore(), 100));
const unstored = await bareServer(host, basePath, captured, noStorage(100));
const sides: Record<Side, string> = {
  reference: base.origin,
  bare: originOf(bare),
  unstored: originOf(unstored),
};
/**
 * Per endpoint and side, one entry per counted round: the server's CPU per request, the rate autocannon saw (the load
 * generator in a process of its own, as in the bench, but over a fixed number of requests) and the load generator's
 * own CPU per response (autocannon parses every response, its headers included).
 */
interface RoundMeasure {
  cpu: number;
  perSecond: number;
  client: number;
  /** Garbage collection pauses per request, µs (wall time; the main thread waits for the collector's helpers). */
  collecting: number;
  /** Time the server's event loop was working per request, µs: its CPU plus any time it was off the core meanwhile. */
  busy: number;
}
const results = new Map<string, Record<Side, RoundMeasure[]>>();
try {
  for (let round = 0; round <= rounds; round += 1) {
    for (const endpoint of endpoints.filter((each) => operation === undefined || each.method === operation)) {
      const keys: string[] = [];
      for (let index = 0; index < Math.ceil(requestsPerRun / 300) + 10; index += 1)
        keys.push(
          (
            await createApiKey(
              service.dependencies.store,
              service.dependencies.clock,
              paid.accountId,
              'secret',
            )
          ).key,
        );
      const requests = requestsFor(endpoint, basePath, keys);
      const entry = results.get(endpoint.label) ?? { reference: [], bare: [], unstored: [] };
      results.set(endpoint.label, entry);
      const alternating = round % 2 === 0 ? [...sideNames] : [...sideNames].reverse();
      // SIDE=reference|bare|unstored measures one side only (to profile it: node --cpu-prof --import tsx ...).
      const order = alternating.filter((side) => only === undefined || side === only);
      for (const side of order) {
        const perfFile =
          perfDir === undefined || round === 0
            ? undefined
            : path.join(perfDir, `${side}-${endpoint.method}-${round}.data`);
        const recording = perfFile === undefined ? undefined : await recordPerf(perfFile);
        const collectingBefore = collecting;
        const loopBefore = performance.eventLoopUtilization();
        const before = process.cpuUsage();
        const counts = await drive(sides[side], requests, requestsPerRun);
        const used = process.cpuUsage(before);
        const loop = performance.eventLoopUtilization(loopBefore);
        await recording?.stop();
        if (perfFile !== undefined) await writeFile(`${perfFile}.requests`, String(counts.ok));
        if (counts.other > 0)
          throw new Error(`${side} ${endpoint.label}: ${counts.other} unexpected responses`);
        // The first round warms the JIT of both sides up and is not counted.
        if (round > 0)
          entry[side].push({
            cpu: (used.user + used.system) / counts.ok,
            perSecond: counts.perSecond,
            client: counts.clientMicroseconds,
            collecting: ((collecting - collectingBefore) * 1000) / counts.ok,
            busy: (loop.active * 1000) / counts.ok,
          });
      }
    }
  }
} finally {
  await bare.close();
  await unstored.close();
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
}
const fixed = (values: number[]) => values.map((value) => value.toFixed(0)).join(' / ');
const range = (values: number[]) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;
for (const [label, measures] of results) {
  const of = (side: Side, field: keyof RoundMeasure) => measures[side].map((round) => round[field]);
  const entry = {
    reference: of('reference', 'cpu'),
    bare: of('bare', 'cpu'),
    unstored: of('unstored', 'cpu'),
  };
  const ratios = entry.reference.map((value, index) => (entry.bare[index] ?? Number.NaN) / value);
  const unstoredRatios = entry.reference.map((value, index) => (entry.unstored[index] ?? Number.NaN) / value);
  const [referenceRate, bareRate] = [of('reference', 'perSecond'), of('bare', 'perSecond')];
  const rateRatios = referenceRate.map((value, index) => value / (bareRate[index] ?? Number.NaN));
  console.log(
    `${label}: CPU µs per request, reference ${median(entry.reference).toFixed(0)} (${fixed(entry.reference)}), bare ${median(entry.bare).toFixed(0)} (${fixed(entry.bare)}), bare storing nothing ${median(entry.unstored).toFixed(0)} (${fixed(entry.unstored)}); bare/reference ${median(ratios).toFixed(2)}x (rounds ${range(ratios)}), storing nothing/reference ${median(unstoredRatios).toFixed(2)}x`,
  );
  console.log(
    `${label}: µs per request in collection pauses, reference ${median(of('reference', 'collecting')).toFixed(1)}, bare ${median(of('bare', 'collecting')).toFixed(1)}, bare storing nothing ${median(of('unstored', 'collecting')).toFixed(1)}; event loop working, reference ${median(of('reference', 'busy')).toFixed(0)}, bare ${median(of('bare', 'busy')).toFixed(0)}, bare storing nothing ${median(of('unstored', 'busy')).toFixed(0)}`,
  );
  console.log(
    `${label}: requests a second, reference ${median(referenceRate).toFixed(0)}, bare ${median(bareRate).toFixed(0)}; reference/bare ${median(rateRatios).toFixed(2)}x (rounds ${range(rateRatios)}); the load generator's CPU µs per response, reference ${median(of('reference', 'client')).toFixed(0)}, bare ${median(of('bare', 'client')).toFixed(0)}`,
  );
}
console.log(
  `load average at the end: ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
