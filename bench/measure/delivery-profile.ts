// npx tsx bench/measure/delivery-profile.ts [deliveries = 5000] [out.cpuprofile] — one round of the delivery benchmark
// (embedded store, a 204 receiver in this process) with the service's thread profiled by node:inspector from the
// service's start to the last arrival; prints the thread's busy share, CPU per delivery and the top self-time entries
// by function and by file. Used to find where delivery time goes (ADR 0030, 0032).
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fillOutbox } from '../../reference/delivery/testing/outbox-filler.js';
import { start } from '../../reference/start.js';

const total = Number(process.argv[2] ?? 5000);
const output = process.argv[3];

let arrivals = 0;
let firstAt = 0;
let lastAt = 0;
let allArrived: () => void = () => {};
let threadsAtFirst = new Map<string, number>();
const server = createServer((incoming, response) => {
  incoming.resume();
  incoming.on('end', () => {
    arrivals += 1;
    lastAt = performance.now();
    if (arrivals === 1) {
      firstAt = lastAt;
      threadsAtFirst = threadCpu();
    }
    response.writeHead(204).end();
    if (arrivals === total) allArrived();
  });
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

const root = path.join(import.meta.dirname, '..', '..', '.tmp');
await mkdir(root, { recursive: true });
const dataDir = await mkdtemp(path.join(root, 'delivery-profile-'));
await fillOutbox({ kind: 'embedded', dataDir: path.join(dataDir, 'database') }, 1, [url], total);
const done = new Promise<void>((resolve) => {
  allArrived = resolve;
});

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
const profiling = process.env.PROFILE !== '0';
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
const load = loadavg()[0]?.toFixed(1);
const cpuBefore = process.cpuUsage();
const eluBefore = performance.eventLoopUtilization();
const threadsBefore = threadCpu();
if (profiling) await session.post('Profiler.start');
const service = await start({
  dataDir,
  allowPrivateWebhookTargets: true,
  webhookLog: { info() {} },
  webhookSenderThread: process.env.SENDER_THREAD !== '0',
});
await done;
const threadsAfter = threadCpu();
const { profile } = profiling
  ? ((await session.post('Profiler.stop')) as unknown as { profile: Profile })
  : { profile: { nodes: [], samples: [], timeDeltas: [] } as Profile };
const elu = performance.eventLoopUtilization(eluBefore);
const cpu = process.cpuUsage(cpuBefore);
await service.stop();
server.close();
await rm(dataDir, { recursive: true, force: true });
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
const seconds = (lastAt - firstAt) / 1000;
console.log(
  [
    `${total} deliveries, ${Math.round((total - 1) / seconds)}/s; load average ${load} → ${loadavg()[0]?.toFixed(1)}`,
    `service thread busy ${(elu.utilization * 100).toFixed(0)} % of ${(elu.idle + elu.active).toFixed(0)} ms; process CPU (all threads) ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, ${((cpu.user + cpu.system) / 1000 / total).toFixed(3)} ms per delivery`,
    `CPU per thread before the first arrival (ms, > 50): ${[...threadsAtFirst.entries()]
      .map(([name, ms]) => [name, ms - (threadsBefore.get(name) ?? 0)] as const)
      .filter(([, ms]) => ms > 50)
      .sort((a, b) => b[1] - a[1])
      .map(([name, ms]) => `${name} ${ms}`)
      .join(', ')}`,
    `CPU per thread from the first arrival to the last (ms, > 50): ${[...threadsAfter.entries()]
      .map(([name, ms]) => [name, ms - (threadsAtFirst.get(name) ?? 0)] as const)
      .filter(([, ms]) => ms > 50)
      .sort((a, b) => b[1] - a[1])
      .map(([name, ms]) => `${name} ${ms}`)
      .join(', ')}`,
    'by file (self time of the service thread, receiver included):',
    top(byFile, 18),
    'by function:',
    top(byFunction, 30),
  ].join('\n'),
);
