// BASE=<tree> npx tsx bench/measure/rest-inject-ab.ts [rounds] (OPERATION=POST|GET) — the reference of this tree
// against the reference of another tree, both on the in-memory store and driven through `inject()` in one process,
// rounds alternating (issue 16): on a loaded machine two runs of `rest-inject.ts` differ by more than a change of a few
// microseconds, an A/B in one process much less. The other tree is a plain copy of a commit with this tree's
// node_modules linked in:
//   mkdir -p .tmp/base && git archive <commit> | tar -x -C .tmp/base && ln -s ../../node_modules .tmp/base/node_modules
// Prints min, first quartile and median CPU per request of each side.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

type Start = typeof import('../../reference/index.js')['start'];
type BuildApps = typeof import('../../reference/http/build-apps.js')['buildApps'];
type CreateApiKey = typeof import('../../reference/seed.js')['createApiKey'];
type CreateMemoryStore =
  typeof import('../../reference/storage/testing/memory-store.js')['createMemoryStore'];

const rounds = Number(process.argv[2] ?? 12);
const requestsPerRound = 2000;
const operation = process.env.OPERATION === 'GET' ? 'GET' : 'POST';
const repository = path.join(import.meta.dirname, '..', '..');
const trees = { before: path.resolve(process.env.BASE ?? '.tmp/base'), after: repository };
const streamBody = JSON.stringify({
  title: 'Pump 7 vibration',
  quality: 'high',
  format: 'json',
  metadata: { site: 'plant-3' },
});

interface Side {
  app: FastifyInstance;
  keys: string[];
  basePath: string;
  sent: number;
  stop: () => Promise<void>;
}

function request(side: Side, method: 'GET' | 'POST', url: string, payload?: string) {
  // Fresh keys, each used for 64 requests: the plan's rate window never refuses one.
  const key = side.keys[Math.floor(side.sent++ / 64) % side.keys.length];
  return side.app.inject({
    method,
    url: `${side.basePath}${url}`,
    headers: {
      authorization: `Bearer ${key}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload }),
  });
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
    app: api,
    keys,
    basePath: new URL(service.urls.baseUrl).pathname.replace(/\/+$/, ''),
    sent: 0,
    stop: async () => {
      await api.close();
      await auth.close();
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  for (let index = 0; index < 100; index += 1)
    await request(side, 'POST', '/reports', JSON.stringify({ title: `Bench report ${index + 1}` }));
  return side;
}

async function round(side: Side): Promise<number> {
  const expected = operation === 'POST' ? 201 : 200;
  const before = process.cpuUsage();
  for (let index = 0; index < requestsPerRound; index += 1) {
    const reply =
      operation === 'POST'
        ? await request(side, 'POST', '/streams', streamBody)
        : await request(side, 'GET', '/reports?limit=100');
    if (reply.statusCode !== expected) throw new Error(`${reply.statusCode}: ${reply.body}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requestsPerRound;
}

const sides = { before: await startSide(trees.before), after: await startSide(trees.after) };
const figures: Record<string, number[]> = { before: [], after: [] };
try {
  // The first round warms both sides up and is not counted; the order flips every round.
  for (let index = 0; index <= rounds; index += 1) {
    const order = index % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
    for (const name of order) {
      const perRequest = await round(sides[name]);
      if (index > 0) figures[name]?.push(perRequest);
    }
  }
} finally {
  for (const side of Object.values(sides)) await side.stop();
}
for (const [name, values] of Object.entries(figures)) {
  const sorted = [...values].sort((left, right) => left - right);
  const at = (fraction: number) => (sorted[Math.floor(sorted.length * fraction)] ?? Number.NaN).toFixed(1);
  console.log(
    `${operation} ${name.padEnd(6)} min ${at(0)} µs, first quartile ${at(0.25)}, median ${at(0.5)} (CPU per request, ${rounds} rounds)`,
  );
}
console.log(
  `load average at the end: ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
