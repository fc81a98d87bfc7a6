// BASE=<tree> npx tsx bench/measure/rest-cpu-ab.ts [rounds] (OPERATION=POST|GET) — the reference of this tree against
// the reference of another tree over sockets: both started in this process on the in-memory store, driven in turn by
// autocannon in a child process (as `rest-cpu.ts` does), rounds alternating; CPU of this process per request. The
// inject() A/B (`rest-inject-ab.ts`) leaves out the socket, the HTTP parser and the header writing, and a change
// measured there can look larger or smaller than it is in a serving process (issue 16). The other tree is a plain copy:
//   mkdir -p .tmp/base && git archive <commit> | tar -x -C .tmp/base && ln -s ../../node_modules .tmp/base/node_modules
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { drive } from './child-load.js';
import { compareTrees, createStreamEndpoint, operationFromEnvironment } from './inject-driver.js';

type Start = typeof import('../../reference/index.js')['start'];
type CreateApiKey = typeof import('../../reference/seed.js')['createApiKey'];
type CreateMemoryStore =
  typeof import('../../reference/storage/testing/memory-store.js')['createMemoryStore'];
type RequestsFor = typeof import('../rest/load.js')['requestsFor'];

const rounds = Number(process.argv[2] ?? 12);
const requestsPerRound = 6000;
const operation = operationFromEnvironment();
const repository = path.join(import.meta.dirname, '..', '..');
const trees = { before: path.resolve(process.env.BASE ?? '.tmp/base'), after: repository };
const endpoint =
  operation === 'POST'
    ? createStreamEndpoint
    : {
        label: 'GET',
        method: 'GET' as const,
        path: '/reports?limit=100',
        expectedStatus: 200,
        body: undefined,
      };

interface Side {
  /** Requests for one round, each key fresh (the paid plan's rate window per key refuses none of them). */
  requests: () => Promise<unknown[]>;
  origin: string;
  stop: () => Promise<void>;
}

async function startSide(tree: string): Promise<Side> {
  const { start }: { start: Start } = await import(path.join(tree, 'reference/index.ts'));
  const { createApiKey }: { createApiKey: CreateApiKey } = await import(path.join(tree, 'reference/seed.ts'));
  const { createMemoryStore }: { createMemoryStore: CreateMemoryStore } = await import(
    path.join(tree, 'reference/storage/testing/memory-store.ts')
  );
  const { requestsFor }: { requestsFor: RequestsFor } = await import(path.join(tree, 'bench/rest/load.ts'));
  const root = path.join(repository, '.tmp');
  await mkdir(root, { recursive: true });
  const dataDir = await mkdtemp(path.join(root, 'rest-cpu-ab-'));
  const service = await start({ dataDir, host: '127.0.0.1', store: createMemoryStore() });
  const paid = service.seeded?.accounts.paid;
  if (paid === undefined) throw new Error('no paid account');
  const base = new URL(service.urls.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const newKey = async () =>
    (await createApiKey(service.dependencies.store, service.dependencies.clock, paid.accountId, 'secret'))
      .key;
  for (let index = 0; index < 100; index += 1)
    await fetch(`${service.urls.baseUrl}/reports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${paid.keys.secret.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Bench report ${index + 1}` }),
    });
  return {
    origin: base.origin,
    requests: async () => {
      const keys: string[] = [];
      for (let index = 0; index < Math.ceil(requestsPerRound / 300) + 10; index += 1)
        keys.push(await newKey());
      return requestsFor(endpoint, basePath, keys);
    },
    stop: async () => {
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

await compareTrees(
  { before: await startSide(trees.before), after: await startSide(trees.after) },
  rounds,
  async (side) => {
    const requests = await side.requests();
    const before = process.cpuUsage();
    const counts = await drive(side.origin, requests, requestsPerRound);
    const used = process.cpuUsage(before);
    if (counts.other > 0) throw new Error(`${counts.other} unexpected responses`);
    return (used.user + used.system) / counts.ok;
  },
  `${operation} (CPU per request over sockets)`,
);
