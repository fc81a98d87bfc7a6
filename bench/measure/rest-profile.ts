// node --cpu-prof --cpu-prof-dir=.tmp/profiles --import tsx bench/measure/rest-profile.ts [memory|pglite] [post|get]
// One reference service (in-memory store or PGlite) under autocannon for 10 s, so that a CPU profile of this process
// shows where a request's time goes (issue 16). autocannon runs on its own worker thread; the profile is of the main
// thread, where the service runs. Open the .cpuprofile in Chrome DevTools or summarise it with
// `npx tsx bench/measure/profile-summary.ts <file>`.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { start } from '../../reference/index.js';
import { createApiKey } from '../../reference/seed.js';
import { createMemoryStore } from '../../reference/storage/testing/memory-store.js';
import { load, measure, requestsFor, requestsPerKey } from '../rest/load.js';

const [backend = 'memory', operation = 'post'] = process.argv.slice(2);
const seconds = 10;
/** Requests a second no run here is expected to pass (a quiet 2-core machine gave about 13,500 POSTs). */
const maximumRate = 30_000;
const root = path.join(import.meta.dirname, '..', '..', '.tmp');
await mkdir(root, { recursive: true });
const dataDir = await mkdtemp(path.join(root, 'rest-profile-'));
const service = await start({
  dataDir,
  host: '127.0.0.1',
  ...(backend === 'memory' ? { store: createMemoryStore() } : {}),
});
try {
  const paid = service.seeded?.accounts.paid;
  if (paid === undefined) throw new Error('no seeded paid account');
  // Enough keys that none meets its window at the fastest rate seen here: with 200, a quiet machine's 13,500 POSTs a
  // second spread 675 requests over each key and a quarter of the profile was 429 answers.
  const keyCount = Math.ceil((maximumRate * seconds) / requestsPerKey);
  const keys: string[] = [];
  for (let index = 0; index < keyCount; index += 1)
    keys.push(
      (await createApiKey(service.dependencies.store, service.dependencies.clock, paid.accountId, 'secret'))
        .key,
    );
  const base = new URL(service.urls.baseUrl);
  for (let index = 0; index < 100; index += 1)
    await fetch(`${service.urls.baseUrl}/reports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${paid.keys.secret.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Report ${index}` }),
    });
  const endpoint =
    operation === 'post'
      ? {
          label: 'POST',
          method: 'POST' as const,
          path: '/streams',
          expectedStatus: 201,
          body: '{"title":"Pump 7"}',
        }
      : {
          label: 'GET',
          method: 'GET' as const,
          path: '/reports?limit=100',
          expectedStatus: 200,
          body: undefined,
        };
  const result = await load(
    base.origin,
    requestsFor(endpoint, base.pathname.replace(/\/+$/, ''), keys),
    seconds,
  );
  const { unexpected, unexpectedDetail } = measure(result, endpoint.expectedStatus);
  console.log(
    `${backend} ${operation}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ${keyCount} keys`,
  );
  // A profile of refused requests is a profile of the error path: say so rather than let it pass for the operation's.
  if (unexpected > 0) {
    console.error(
      `not the operation's profile: ${unexpectedDetail.join(', ')} besides ${endpoint.expectedStatus}`,
    );
    process.exitCode = 1;
  }
} finally {
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
}
