// tsx bench/cluster-streams.ts [streams, comma-separated: 5,10,20] [seconds: 10]: N streams × 1 kHz (the ingest-1khz
// scenario: JSON, QoS 0, one WebSocket subscriber per stream) through one node vs two nodes of ADR 0023, each node a
// process of its own on one PostgreSQL and one Redis. Two nodes: every device on node B and every subscriber on node A
// (node A's public MQTT address is B's), so each sample crosses the Redis hop and ingest and fan-out run on different
// processes. One node: devices and subscribers on it (with Redis, its own subscribers hear it through Redis too).
// Per run: delivered samples, loss, latency p50/p99 (publish → subscriber), the runner's late share, and CPU per
// delivered sample of the nodes and of redis-server (from /proc, over the whole runner run including its warm-up and the
// streams' set-up, which weighs on runs of few streams).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../reference/clock.js';
import { startRedisServer } from '../reference/cluster/testing/redis-server.js';
import { createApiKey } from '../reference/seed.js';
import { openStore } from '../reference/storage/open-store.js';
import { startPostgresServer } from '../reference/storage/testing/postgres-server.js';
import { freePort } from '../reference/testing/free-port.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const streamCounts = (process.argv[2] ?? '5,10,20').split(',').map(Number);
const seconds = Number(process.argv[3] ?? 10);
const warmupSeconds = 2;

/** CPU seconds a process used so far (utime + stime of /proc/<pid>/stat). */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Node {
  pid: number;
  baseUrl: string;
  stop(): Promise<void>;
}

type Ports = { apiPort: number; authPort: number; mqttPort: number };

const nodePorts = async (): Promise<Ports> => ({
  apiPort: await freePort(),
  authPort: await freePort(),
  mqttPort: await freePort(),
});

/** One node as `npm start` runs it (node --import tsx, so the pid is the process doing the work). */
async function startNode(
  name: string,
  ports: Ports,
  mqttOf: Ports,
  environment: NodeJS.ProcessEnv,
  scratch: string,
) {
  const config = path.join(scratch, `${name}.json`);
  await writeFile(
    config,
    JSON.stringify({ publicUrls: { mqttBroker: `mqtt://127.0.0.1:${mqttOf.mqttPort}` } }),
  );
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'reference/main.ts', '--config', config, '--node-id', name],
    {
      cwd: root,
      env: {
        ...environment,
        TELEMETRY_API_PORT: String(ports.apiPort),
        TELEMETRY_AUTH_PORT: String(ports.authPort),
        TELEMETRY_MQTT_PORT: String(ports.mqttPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const deadline = Date.now() + 120_000;
  while (!/^Node /m.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`${name} did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const stopped = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid as number,
    baseUrl: `http://127.0.0.1:${ports.apiPort}/v2`,
    async stop() {
      child.kill('SIGTERM');
      await stopped;
    },
  } satisfies Node;
}

/** One runner run of `streams` streams; the CPU the nodes and Redis spent meanwhile. */
async function runLoad(streams: number, baseUrl: string, key: string, pids: number[], scratch: string) {
  const template = await readFile(path.join(root, 'load/scenarios/ingest-1khz.yaml'), 'utf8');
  const scenario = path.join(scratch, `streams-${streams}.yaml`);
  await writeFile(
    scenario,
    template.replace(/^\$schema: .*$/m, '').replace(/^ {2}streams: \d+$/m, `  streams: ${streams}`),
  );
  const reportDir = path.join(scratch, `report-${streams}`);
  const before = await Promise.all(pids.map(cpuSeconds));
  const runner = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'load/runner/cli.ts',
      scenario,
      '--seconds',
      String(seconds),
      '--report-dir',
      reportDir,
    ],
    {
      cwd: root,
      env: { ...process.env, TELEMETRY_BASE_URL: baseUrl, TELEMETRY_PAID_SECRET_KEY: key },
      stdio: 'ignore',
    },
  );
  await new Promise((resolve) => runner.once('exit', resolve));
  const after = await Promise.all(pids.map(cpuSeconds));
  const result = JSON.parse(await readFile(path.join(reportDir, 'result.json'), 'utf8'));
  return { ingest: result.ingest, cpu: after.map((value, index) => value - (before[index] ?? 0)) };
}

const ms = (value: number | null) => (value === null ? '-' : `${value.toFixed(1)} ms`);

function line(label: string, streams: number, run: Awaited<ReturnType<typeof runLoad>>) {
  const { ingest, cpu } = run;
  // Samples delivered, the warm-up's counted as the run's (same pace): the work done for the CPU spent.
  const total = (ingest.received * (seconds + warmupSeconds)) / seconds;
  const perSample = (cpuSecondsSpent: number) => `${((cpuSecondsSpent / total) * 1e6).toFixed(1)} µs`;
  const late = ingest.pacing.scheduled === 0 ? 0 : ingest.pacing.late / ingest.pacing.scheduled;
  const nodes = cpu.slice(0, -1);
  console.log(
    `${label.padEnd(9)} ${String(streams).padStart(3)} streams: delivered ${ingest.received}/${ingest.expected}, ` +
      `lost ${ingest.lost}, p50 ${ms(ingest.latencyMs.p50)}, p99 ${ms(ingest.latencyMs.p99)}, ` +
      `late ${(late * 100).toFixed(1)}%; CPU/sample nodes ${nodes.map(perSample).join(' + ')}, ` +
      `redis ${perSample(cpu.at(-1) ?? 0)}; load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}`,
  );
}

async function main() {
  const scratch = await mkdtemp(path.join(tmpdir(), 'cluster-streams-'));
  const postgres = await startPostgresServer();
  const redis = await startRedisServer();
  if ('unavailable' in postgres || 'unavailable' in redis) throw new Error('PostgreSQL or Redis unavailable');
  const environment = {
    ...process.env,
    TELEMETRY_POSTGRES_URL: postgres.connectionString,
    TELEMETRY_REDIS_URL: redis.url,
    TELEMETRY_DATA_DIR: path.join(scratch, 'data'),
  };
  try {
    const [portsA, portsB] = [await nodePorts(), await nodePorts()];
    let nodeA = await startNode('node-a', portsA, portsA, environment, scratch);
    const store = await openStore({ kind: 'postgres', connectionString: postgres.connectionString });
    const paid = (await store.accounts.list()).find((account) => account.plan === 'paid');
    if (paid === undefined) throw new Error('no paid account seeded');
    const { key } = await createApiKey(store, systemClock(), paid.id, 'secret');
    await store.close();
    for (const streams of streamCounts)
      line('one node', streams, await runLoad(streams, nodeA.baseUrl, key, [nodeA.pid, redis.pid], scratch));
    await nodeA.stop();
    // Node A's public MQTT address is node B's: devices land on B, subscribers (A's WebSocket URL) on A.
    nodeA = await startNode('node-a', portsA, portsB, environment, scratch);
    const nodeB = await startNode('node-b', portsB, portsB, environment, scratch);
    for (const streams of streamCounts)
      line(
        'two nodes',
        streams,
        await runLoad(streams, nodeA.baseUrl, key, [nodeA.pid, nodeB.pid, redis.pid], scratch),
      );
    await Promise.all([nodeA.stop(), nodeB.stop()]);
  } finally {
    await redis.stop();
    await postgres.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
