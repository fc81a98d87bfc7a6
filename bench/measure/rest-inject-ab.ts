// BASE=<tree> npx tsx bench/measure/rest-inject-ab.ts [rounds] (OPERATION=POST|GET) — the reference of this tree
// against the reference of another tree, both on the in-memory store and driven through `inject()` in one process,
// rounds alternating (issue 16): on a loaded machine two runs of `rest-inject.ts` differ by more than a change of a few
// microseconds, an A/B in one process much less. The other tree is a plain copy of a commit with this tree's
// node_modules linked in:
//   mkdir -p .tmp/base && git archive <commit> | tar -x -C .tmp/base && ln -s ../../node_modules .tmp/base/node_modules
// Prints min, first quartile and median CPU per request of each side.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  compareTrees,
  cpuPerRequest,
  createListedReports,
  type InjectRequest,
  injector,
  operationFromEnvironment,
} from './inject-driver.js';

type Start = typeof import('../../reference/index.js')['start'];
type BuildApps = typeof import('../../reference/http/build-apps.js')['buildApps'];
type CreateApiKey = typeof import('../../reference/seed.js')['createApiKey'];
type CreateMemoryStore =
  typeof import('../../reference/storage/testing/memory-store.js')['createMemoryStore'];

const rounds = Number(process.argv[2] ?? 12);
const requestsPerRound = 2000;
const operation = operationFromEnvironment();
const repository = path.join(import.meta.dirname, '..', '..');
const trees = { before: path.resolve(process.env.BASE ?? '.tmp/base'), after: repository };

interface Side {
  request: InjectRequest;
  stop: () => Promise<void>;
}

async function startSide(tree: string): Promise<Side> {
  const { start }: { start: Start } = await import(path.join(tree, 'reference/index.ts'));
  const { buildApps }: { buildApps: BuildApps } = await import(
    path.join(tree, 'reference/http/build-apps.ts')
  );
  const { createApiKey }: { createApiKey: CreateApiKey } = await import(path.join(tree, 'reference/seed.ts'));
  const { createMemoryStore }: { createMemoryStore: CreateMemoryStore } = await import(
    path.join(tree, 'reference/storage/testing/memory-store.ts')
  );
  const root = path.join(repository, '.tmp');
  await mkdir(root, { recursive: true });
  const dataDir = await mkdtemp(path.join(root, 'rest-ab-'));
  const service = await start({ dataDir, host: '127.0.0.1', store: createMemoryStore() });
  const paid = service.seeded?.accounts.paid;
  if (paid === undefined) throw new Error('no paid account');
  const keys: string[] = [];
  for (let index = 0; index < 400; index += 1) {
    const created = await createApiKey(
      service.dependencies.store,
      service.dependencies.clock,
      paid.accountId,
      'secret',
    );
    keys.push(created.key);
  }
  const { api, auth } = await buildApps(service.dependencies);
  const side: Side = {
    request: injector(api, new URL(service.urls.baseUrl).pathname.replace(/\/+$/, ''), keys),
    stop: async () => {
      await api.close();
      await auth.close();
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  await createListedReports(side.request);
  return side;
}

await compareTrees(
  { before: await startSide(trees.before), after: await startSide(trees.after) },
  rounds,
  (side) => cpuPerRequest(side.request, operation, requestsPerRound),
  `${operation} (CPU per request)`,
);
