// npx tsx bench/measure/rest-inject.ts [rounds] (OPERATION=POST|GET, SIDE=reference|bare) — the JavaScript side of a request alone: the
// reference (in-memory store) and the bare route of the REST benchmark driven through Fastify's `inject()` in this
// process, so no socket, no kernel and no load generator is counted. Sides alternate; each side's figure is the
// minimum CPU per request over the rounds, which a shared machine's load inflates far less than a median (issue 16:
// at load 10, medians of `rest-cpu.ts` moved by ±15 % between runs). A third side, the bare route with the reference's
// five response headers added, shows how much of the difference is the response the spec asks for. `inject()` itself
// costs about as much as a small request (light-my-request builds the response object and copies its headers), so
// compare differences, not ratios.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApps } from '../../reference/http/build-apps.js';
import { start } from '../../reference/index.js';
import { createApiKey } from '../../reference/seed.js';
import { createMemoryStore } from '../../reference/storage/testing/memory-store.js';
import { bareServer, type CapturedBodies, noStorage } from '../rest/bare-server.js';

const rounds = Number(process.argv[2] ?? 12);
const requestsPerRound = 2000;
const operation = process.env.OPERATION === 'GET' ? 'GET' : 'POST';
const root = path.join(import.meta.dirname, '..', '..', '.tmp');
await mkdir(root, { recursive: true });
const dataDir = await mkdtemp(path.join(root, 'rest-inject-'));
const service = await start({ dataDir, host: '127.0.0.1', store: createMemoryStore() });
const paid = service.seeded?.accounts.paid;
if (paid === undefined) throw new Error('no paid account');
const basePath = new URL(service.urls.baseUrl).pathname.replace(/\/+$/, '');
// Fresh keys, each used for 64 requests: the plan's rate window never refuses one.
const keys: string[] = [];
for (let index = 0; index < 400; index += 1)
  keys.push(
    (await createApiKey(service.dependencies.store, service.dependencies.clock, paid.accountId, 'secret'))
      .key,
  );
const { api, auth } = await buildApps(service.dependencies);
let sent = 0;
const request = (app: FastifyInstance, method: 'GET' | 'POST', url: string, payload?: string) =>
  app.inject({
    method,
    url: `${basePath}${url}`,
    headers: {
      authorization: `Bearer ${keys[Math.floor(sent++ / 64) % keys.length]}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload }),
  });
const streamBody = JSON.stringify({
  title: 'Pump 7 vibration',
  quality: 'high',
  format: 'json',
  metadata: { site: 'plant-3' },
});
for (let index = 0; index < 100; index += 1)
  await request(api, 'POST', '/reports', JSON.stringify({ title: `Bench report ${index + 1}` }));
const bodies = {
  created: (await request(api, 'POST', '/streams', streamBody)).json(),
  list: (await request(api, 'GET', '/reports?limit=100')).json(),
} as CapturedBodies;
const allSides: Record<string, FastifyInstance> = {
  reference: api,
  bare: await bareServer('127.0.0.1', basePath, bodies, noStorage(100)),
  'bare + reference headers': await bareServer('127.0.0.1', basePath, bodies, noStorage(100), {
    withReferenceHeaders: true,
  }),
};
// SIDE=reference (or bare) runs that side alone, for a CPU profile of it (`node --cpu-prof --import tsx`).
const only = process.env.SIDE;
const sides = Object.fromEntries(
  Object.entries(allSides).filter(([name]) => only === undefined || name === only),
);
const expected = operation === 'POST' ? 201 : 200;
async function round(app: FastifyInstance): Promise<number> {
  const before = process.cpuUsage();
  for (let index = 0; index < requestsPerRound; index += 1) {
    const reply =
      operation === 'POST'
        ? await request(app, 'POST', '/streams', streamBody)
        : await request(app, 'GET', '/reports?limit=100');
    if (reply.statusCode !== expected) throw new Error(`${reply.statusCode}: ${reply.body}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requestsPerRound;
}
const best = new Map<string, number>();
try {
  // The first round warms every side up and is not counted.
  for (let index = 0; index <= rounds; index += 1)
    for (const [name, app] of Object.entries(sides)) {
      const perRequest = await round(app);
      if (index > 0) best.set(name, Math.min(best.get(name) ?? Number.POSITIVE_INFINITY, perRequest));
    }
} finally {
  for (const app of [...Object.values(allSides), auth]) await app.close();
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
}
const bare = best.get('bare') ?? Number.NaN;
for (const [name, value] of best)
  console.log(
    `${operation} ${name.padEnd(26)} ${value.toFixed(1).padStart(7)} µs CPU per request (min of ${rounds}), ${(value - bare).toFixed(1).padStart(6)} µs over bare`,
  );
console.log(
  `load average at the end: ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
