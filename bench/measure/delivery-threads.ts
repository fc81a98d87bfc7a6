// npx tsx bench/measure/delivery-threads.ts [deliveries per round = 5000] [rounds = 3] — the reference draining an
// outbox to a local 204 receiver with PGlite on the service's own thread and on its worker thread (ADR 0030),
// alternating rounds, each on a fresh data directory; prints deliveries per second per round and the load average.
// The 204 receiver runs in this process, as in bench/delivery.ts.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fillOutbox } from '../../reference/delivery/testing/outbox-filler.js';
import { start } from '../../reference/start.js';
import { openStore } from '../../reference/storage/open-store.js';

const perRound = Number(process.argv[2] ?? 5000);
const rounds = Number(process.argv[3] ?? 3);

let arrivals: number[] = [];
let expected = 0;
let allArrived: () => void = () => {};
const server = createServer((incoming, response) => {
  incoming.resume();
  incoming.on('end', () => {
    arrivals.push(performance.now());
    response.writeHead(204).end();
    if (arrivals.length === expected) allArrived();
  });
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

async function round(sameThread: boolean): Promise<number> {
  const root = path.join(import.meta.dirname, '..', '..', '.tmp');
  await mkdir(root, { recursive: true });
  const dataDir = await mkdtemp(path.join(root, 'delivery-threads-'));
  const database = path.join(dataDir, 'database');
  await fillOutbox({ kind: 'embedded', dataDir: database }, 1, [url], perRound);
  arrivals = [];
  expected = perRound;
  const done = new Promise<void>((resolve) => {
    allArrived = resolve;
  });
  const store = await openStore({ kind: 'embedded', dataDir: database, thread: !sameThread });
  const service = await start({
    dataDir,
    store,
    allowPrivateWebhookTargets: true,
    webhookLog: { info() {} },
  });
  await done;
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
  const seconds = ((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)) / 1000;
  return (perRound - 1) / seconds;
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(', ');
console.log(`${perRound} deliveries per round, load average at the start ${load()}`);
for (let index = 0; index < rounds; index += 1)
  for (const sameThread of [true, false]) {
    const perSecond = await round(sameThread);
    console.log(
      `  PGlite on ${sameThread ? "the service's thread" : 'its worker thread  '}: ${Math.round(perSecond)} deliveries/s`,
    );
  }
console.log(`load average at the end ${load()}`);
server.close();
