// npx tsx bench/measure/rest-allocations.ts [requests] (SIDE=reference|bare, TRANSPORT=socket) — bytes allocated per
// POST /streams by the reference (in-memory store) and by the REST benchmark's bare route (same rows), through `inject()`
// in this process (or over sockets, the load generator in a child process as in rest-cpu.ts),
// from V8's sampling heap profiler with collected objects included (so garbage counts, not only what stays), and the
// young-generation collections each side caused. Prints each side's total and the functions whose allocations differ
// most (issue 16: the CPU gap between the two is spread thin, and what a request allocates is one place it can hide).
// inject() allocates for both sides alike (light-my-request's request and response, and it copies every header, so a
// header costs more there than over a socket); compare differences. In a scratch
// worktree with `rest-ablation.patch` applied, ABLATE=headers,auth,... turns those switches on (without it: nothing).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { buildApps } from '../../reference/http/build-apps.js';
import { start } from '../../reference/index.js';
import { createApiKey } from '../../reference/seed.js';
import { createMemoryStore } from '../../reference/storage/testing/memory-store.js';
import { bareServer, type CapturedBodies, originOf, storeStorage } from '../rest/bare-server.js';
import { requestsFor } from '../rest/load.js';
import { drive } from './child-load.js';
import { createStreamEndpoint, injector, streamBody } from './inject-driver.js';

const requests = Number(process.argv[2] ?? 20_000);
const sideNames = ['reference', 'bare'] as const;
type Side = (typeof sideNames)[number];
const only = sideNames.find((side) => side === process.env.SIDE);

interface SampledNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampledNode[];
}

let youngCollections = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR)
      youngCollections += 1;
}).observe({ entryTypes: ['gc'] });

/** Bytes sampled per function (name and file) per request, while `send` makes `count` requests. */
async function allocations(send: (count: number) => Promise<void>, count: number) {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  const before = youngCollections;
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as unknown as Parameters<Session['post']>[1]);
  await send(count);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: SampledNode } };
  session.disconnect();
  const byFunction = new Map<string, number>();
  const walk = (node: SampledNode) => {
    const { functionName, url } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|reference|runtime|bench)\//, '$1/')}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize / count);
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  return { byFunction, youngCollections: youngCollections - before };
}

const root = path.join(import.meta.dirname, '..', '..', '.tmp');
await mkdir(root, { recursive: true });
const dataDir = await mkdtemp(path.join(root, 'rest-allocations-'));
const service = await start({ dataDir, host: '127.0.0.1', store: createMemoryStore() });
const { api, auth } = await buildApps(service.dependencies);
const paid = service.seeded?.accounts.paid;
if (paid === undefined) throw new Error('no paid account');
const accountId = paid.accountId;
/** Fresh keys for `count` requests, 64 a key: the paid plan's rate window per key refuses none of them. */
async function freshKeys(count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let index = 0; index < Math.ceil(count / 64) + 1; index += 1)
    keys.push(
      (await createApiKey(service.dependencies.store, service.dependencies.clock, accountId, 'secret')).key,
    );
  return keys;
}
const keys = await freshKeys(requests + 2000);
const basePath = new URL(service.urls.baseUrl).pathname.replace(/\/+$/, '');
const request = injector(api, basePath, keys);
const created = JSON.parse((await request('POST', '/streams', streamBody)).body) as Record<string, unknown>;
const bare = await bareServer(
  '127.0.0.1',
  basePath,
  { created, list: { data: [] } } as CapturedBodies,
  await storeStorage(createMemoryStore(), 1),
);
const injected: Record<Side, () => Promise<{ statusCode: number; body: string }>> = {
  reference: () => request('POST', '/streams', streamBody),
  bare: () =>
    bare.inject({
      method: 'POST',
      url: `${basePath}/streams`,
      headers: { 'content-type': 'application/json' },
      payload: streamBody,
    }),
};
const origins: Record<Side, string> = {
  reference: new URL(service.urls.baseUrl).origin,
  bare: originOf(bare),
};
/** `count` POSTs to a side, each answered 201. */
const senders: Record<Side, (count: number) => Promise<void>> = Object.fromEntries(
  sideNames.map((side) => [
    side,
    async (count: number) => {
      if (process.env.TRANSPORT === 'socket') {
        const counts = await drive(
          origins[side],
          requestsFor(createStreamEndpoint, basePath, await freshKeys(count)),
          count,
        );
        if (counts.other > 0) throw new Error(`${side}: ${counts.other} unexpected responses`);
        return;
      }
      for (let index = 0; index < count; index += 1) {
        const reply = await injected[side]();
        if (reply.statusCode !== 201) throw new Error(`${side}: ${reply.statusCode} ${reply.body}`);
      }
    },
  ]),
) as Record<Side, (count: number) => Promise<void>>;
(globalThis as { __ablate?: Record<string, boolean> }).__ablate = Object.fromEntries(
  (process.env.ABLATE ?? '')
    .split(',')
    .filter((name) => name !== '')
    .map((name) => [name, true]),
);
const results = new Map<Side, Awaited<ReturnType<typeof allocations>>>();
try {
  for (const side of sideNames.filter((name) => only === undefined || name === only)) {
    // Warm-up, not sampled: the JIT's first versions allocate differently.
    await senders[side](2000);
    results.set(side, await allocations(senders[side], requests));
  }
} finally {
  await api.close();
  await auth.close();
  await bare.close();
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
}
const total = (side: Side) =>
  [...(results.get(side)?.byFunction.values() ?? [])].reduce((sum, bytes) => sum + bytes, 0);
for (const [side, result] of results)
  console.log(
    `${side}: ${total(side).toFixed(0)} bytes allocated per POST /streams, ${result.youngCollections} young-generation collections over ${requests} requests`,
  );
const reference = results.get('reference')?.byFunction ?? new Map<string, number>();
const baseline = results.get('bare')?.byFunction ?? new Map<string, number>();
const differences = [...new Set([...reference.keys(), ...baseline.keys()])]
  .map((name) => ({ name, reference: reference.get(name) ?? 0, bare: baseline.get(name) ?? 0 }))
  .sort((left, right) => right.reference - right.bare - (left.reference - left.bare));
console.log('bytes per request: reference - bare, reference, bare, function');
for (const { name, reference: mine, bare: theirs } of differences.slice(0, 25))
  console.log(
    `${(mine - theirs).toFixed(0).padStart(7)} ${mine.toFixed(0).padStart(7)} ${theirs.toFixed(0).padStart(7)}  ${name}`,
  );
