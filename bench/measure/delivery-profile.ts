// npx tsx bench/measure/delivery-profile.ts [deliveries = 5000] [out.cpuprofile] — rounds of the delivery benchmark
// (embedded store, a 204 receiver in this process), the service started and stopped each round as the benchmark does,
// so the later rounds run on a warm main thread as its rounds 2 and 3 do. Each round prints the CPU of every thread
// of the process (/proc) in the delivery window, per delivery; the last round's service thread is profiled by
// node:inspector from the service's start to the last arrival (top self-time entries by function and by file).
// ROUNDS=n (default 2), PROFILE=0 skips the profiler, BARE=1 adds a bare undici round after each (the same receiver,
// the bodies the reference sent), SENDER_THREAD=1 sends from the worker thread. Used to find where delivery time goes
// (ADR 0030, 0032, 0034).
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { fillOutbox } from '../../reference/delivery/testing/outbox-filler.js';
import { start } from '../../reference/start.js';

const total = Number(process.argv[2] ?? 5000);
const output = process.argv[3];
const rounds = Number(process.env.ROUNDS ?? 2);
const profiling = process.env.PROFILE !== '0';

interface Captured {
  body: Buffer;
  headers: Record<string, string>;
}
let arrivals = 0;
let firstAt = 0;
let lastAt = 0;
let allArrived: () => void = () => {};
let threadsAtFirst = new Map<string, number>();
const captured: Captured[] = [];
const server = createServer((incoming, response) => {
  const chunks: Buffer[] = [];
  incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
  incoming.on('end', () => {
    arrivals += 1;
    lastAt = performance.now();
    if (arrivals === 1) {
      firstAt = lastAt;
      threadsAtFirst = threadCpu();
    }
    if (captured.length < total)
      captured.push({ body: Buffer.concat(chunks), headers: incoming.headers as Record<string, string> });
    response.writeHead(204).end();
    if (arrivals === total) allArrived();
  });
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
const root = path.join(import.meta.dirname, '..', '..', '.tmp');
await mkdir(root, { recursive: true });

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** CPU ms of each thread of this process (Linux /proc): the service's thread is the one whose id is the pid. */
function threadCpu(): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const task of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      ticks.set(
        `${task === String(process.pid) ? 'main' : name}#${task}`,
        (Number(fields[11]) + Number(fields[12])) * 10,
      );
    } catch {
      // The thread ended meanwhile.
    }
  }
  return ticks;
}

/** Milliseconds of CPU per delivery of each thread between two readings (threads above 10 ms only). */
function perDelivery(from: Map<string, number>, to: Map<string, number>): string {
  const rows = [...to.entries()]
    .map(([name, ms]) => [name, ms - (from.get(name) ?? 0)] as const)
    .filter(([, ms]) => ms > 10)
    .sort((a, b) => b[1] - a[1]);
  const sum = rows.reduce((all, [, ms]) => all + ms, 0);
  return `${rows.map(([name, ms]) => `${name} ${(ms / total).toFixed(3)}`).join(', ')}; all ${(sum / total).toFixed(3)}`;
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });

async function referenceRound(profile: boolean): Promise<Profile | null> {
  const dataDir = await mkdtemp(path.join(root, 'delivery-profile-'));
  await fillOutbox({ kind: 'embedded', dataDir: path.join(dataDir, 'database') }, 1, [url], total);
  arrivals = 0;
  const done = new Promise<void>((resolve) => {
    allArrived = resolve;
  });
  const load = loadavg()[0]?.toFixed(1);
  const eluBefore = performance.eventLoopUtilization();
  const threadsBefore = threadCpu();
  if (profile) await session.post('Profiler.start');
  const service = await start({
    dataDir,
    allowPrivateWebhookTargets: true,
    webhookLog: { info() {} },
    webhookSenderThread: process.env.SENDER_THREAD === '1',
  });
  await done;
  const threadsAfter = threadCpu();
  const result = profile ? ((await session.post('Profiler.stop')) as unknown as { profile: Profile }) : null;
  const elu = performance.eventLoopUtilization(eluBefore);
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
  const seconds = (lastAt - firstAt) / 1000;
  console.log(
    [
      `reference ${total} deliveries, ${Math.round((total - 1) / seconds)}/s; load average ${load} → ${loadavg()[0]?.toFixed(1)}; service thread busy ${(elu.utilization * 100).toFixed(0)} % from start()`,
      `  CPU ms per delivery before the first arrival ×${total}: ${perDelivery(threadsBefore, threadsAtFirst)}`,
      `  CPU ms per delivery, first arrival to last: ${perDelivery(threadsAtFirst, threadsAfter)}`,
    ].join('\n'),
  );
  return result?.profile ?? null;
}

/** The bodies the reference sent, posted by a bare undici loop as bench/delivery.ts does. */
async function bareRound(): Promise<void> {
  const agent = new Agent({ connections: 16, keepAliveTimeout: 10_000 });
  let next = 0;
  const before = threadCpu();
  const started = performance.now();
  const worker = async () => {
    while (next < captured.length) {
      const signed = captured[next++] as Captured;
      const { 'content-length': _length, host: _host, connection: _connection, ...headers } = signed.headers;
      const response = await request(url, { method: 'POST', dispatcher: agent, headers, body: signed.body });
      await response.body.dump();
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  const seconds = (performance.now() - started) / 1000;
  const after = threadCpu();
  await agent.close();
  console.log(
    `bare ${Math.round(captured.length / seconds)}/s; load average ${loadavg()[0]?.toFixed(1)}\n  CPU ms per request: ${perDelivery(before, after)}`,
  );
}

let profile: Profile | null = null;
for (let round = 0; round < rounds; round += 1) {
  profile = await referenceRound(profiling && round === rounds - 1);
  if (process.env.BARE === '1') await bareRound();
}
server.close();
if (profile === null) process.exit(0);
if (output !== undefined) await writeFile(output, JSON.stringify(profile));

const byNode = new Map<number, ProfileNode>(profile.nodes.map((node) => [node.id, node]));
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
let sampled = 0;
for (const [index, id] of profile.samples.entries()) {
  const frame = byNode.get(id)?.callFrame;
  const micros = profile.timeDeltas[index] ?? 0;
  if (frame === undefined) continue;
  sampled += micros;
  const file =
    frame.url === ''
      ? '(native)'
      : frame.url
          .replace(/^.*node_modules\//, '')
          .replace(/^file:\/\/.*?\/(reference|generated|bench)\//, '$1/');
  const name = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  const shortFile = file.replace(/^(undici|@electric-sql\/pglite)\/.*$/, '$1/*');
  byFile.set(shortFile, (byFile.get(shortFile) ?? 0) + micros);
}
const top = (map: Map<string, number>, count: number) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, micros]) => `  ${((100 * micros) / sampled).toFixed(1).padStart(5)} %  ${name}`)
    .join('\n');
console.log(
  [
    'by file (self time of the service thread in the last round, from start(), receiver included):',
    top(byFile, 18),
    'by function:',
    top(byFunction, 30),
  ].join('\n'),
);
