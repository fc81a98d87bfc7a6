// npx tsx bench/measure/rest-inject.ts [rounds] (OPERATION=POST|GET, SIDE=reference|bare) — the JavaScript side of a request alone: the
// reference (in-memory store) and the bare route of the REST benchmark driven through Fastify's `inject()` in this
// process, so no socket, no kernel and no load generator is counted. Sides alternate; each side's figure is the
// minimum CPU per request over the rounds, which a shared machine's load inflates far less than a median (issue 16:
// at load 10, medians of `rest-cpu.ts` moved by ±15 % between runs). A third side, the bare route with the reference's
// five response headers added, shows how much of the difference is the response the spec asks for. `inject()` itself
// costs about as much as a small request (light-my-request builds the response object and copies its headers), so
// compare differences, not ratios.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApps } from '../../reference/http/build-apps.js';
import { start } from '../../reference/index.js';
import { createApiKey } from '../../reference/seed.js';
import { createMemoryStore } from '../../reference/storage/testing/memory-store.js';
import { bareServer, type CapturedBodies, noStorage } from '../rest/bare-server.js';
import {
  cpuPerRequest,
  createListedReports,
  injector,
  loadAverageLine,
  operationFromEnvironment,
  streamBody,
} from './inject-driver.js';

const rounds = Number(process.argv[2] ?? 12);
const requestsPerRound = 2000;
const operation = operationFromEnvironment();
const root = path.join(import.meta.dirname, '..', '..', '.tmp');
await mkdir(root, { recursive: true });
const dataDir = await mkdtemp(path.join(root, 'rest-inject-'));
const service = await start({ dataDir, host: '127.0.0.1', store: createMemoryStore() });
const paid = service.seeded?.accounts.paid;
if (paid === undefined) throw new Error('no paid account');
const basePath = new URL(service.urls.baseUrl).pathname.replace(/\/+$/, '');
const keys: string[] = [];
for (let index = 0; index < 400; index += 1)
  keys.push(
    (await createApiKey(service.dependencies.store, service.dependencies.clock, paid.accountId, 'secret'))
      .key,
  );
const { api, auth } = await buildApps(service.dependencies);
const referenceRequest = injector(api, basePath, keys);
await createListedReports(referenceRequest);
const bodies = {
  created: (await referenceRequest('POST', '/streams', streamBody)).json(),
  list: (await referenceRequest('GET', '/reports?limit=100')).json(),
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
// The bare routes ignore the key; each side keeps its own turn through the keys.
const requests = new Map(Object.entries(sides).map(([name, app]) => [name, injector(app, basePath, keys)]));
const best = new Map<string, number>();
try {
  // The first round warms every side up and is not counted.
  for (let index = 0; index <= rounds; index += 1)
    for (const [name, request] of requests) {
      const perRequest = await cpuPerRequest(request, operation, requestsPerRound);
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
console.log(loadAverageLine());
