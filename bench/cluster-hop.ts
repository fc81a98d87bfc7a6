// tsx bench/cluster-hop.ts [streams] [seconds]: what the Redis fan-out bus (ADR 0023) adds per live message. Two
// "nodes" (two sets of Redis connections, one process) on a throwaway redis-server: node A publishes `streams` × 1 kHz,
// node B listens to every stream. Prints the hop's latency (publish → B's listener, p50/p99/max), the Node CPU per
// message (both nodes' sides together) and redis-server's CPU per message, and the in-process bus beside it; and how
// long a QoS 1 PUBACK waits for `bus.accepted()` (publish of a tick's batch → Redis answered), p50/p99.
import { readFileSync } from 'node:fs';
import { ChannelSubscriptions } from '../reference/cluster/channel-subscriptions.js';
import { openRedisConnections } from '../reference/cluster/redis-connections.js';
import { RedisFanoutBus } from '../reference/cluster/redis-fanout-bus.js';
import { startRedisServer } from '../reference/cluster/testing/redis-server.js';
import type { FanoutBus, LiveMessage } from '../reference/fanout/fanout-bus.js';
import { InProcessFanoutBus } from '../reference/fanout/in-process-fanout-bus.js';

const streams = Number(process.argv[2] ?? 10);
const seconds = Number(process.argv[3] ?? 5);
const tickMilliseconds = 10;
const now = () => performance.timeOrigin + performance.now();

/** CPU seconds a process used so far (utime + stime of /proc/<pid>/stat). */
function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function measure(name: string, publisher: FanoutBus, listener: FanoutBus, redisPid?: number) {
  const latencies: number[] = [];
  const acceptWaits: number[] = [];
  const ids = Array.from({ length: streams }, (_, index) => `stm_bench${index}`);
  const stops = ids.map((id) =>
    listener.subscribe(id, (message: LiveMessage) => {
      if (message.type === 'telemetry') latencies.push(now() - message.receivedAt);
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 300)); // subscriptions confirmed
  const perTick = tickMilliseconds; // 1 kHz: one message per stream per millisecond
  const cpuBefore = process.cpuUsage();
  const redisBefore = redisPid === undefined ? 0 : processCpuSeconds(redisPid);
  let sent = 0;
  const ticks = (seconds * 1000) / tickMilliseconds;
  for (let tick = 0; tick < ticks; tick += 1) {
    for (let index = 0; index < perTick; index += 1)
      for (const streamId of ids) {
        publisher.publish({
          type: 'telemetry',
          streamId,
          receivedAt: now(),
          sample: { ts: sent, values: { rpm: 1 } },
        });
        sent += 1;
      }
    const publishedAt = now();
    publisher.accepted()?.then(() => acceptWaits.push(now() - publishedAt));
    await new Promise((resolve) => setTimeout(resolve, tickMilliseconds));
  }
  const deadline = Date.now() + 10_000;
  while (latencies.length < sent && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const cpu = process.cpuUsage(cpuBefore);
  const redisCpu = redisPid === undefined ? 0 : processCpuSeconds(redisPid) - redisBefore;
  for (const stop of stops) stop();
  const sorted = latencies.sort((x, y) => x - y);
  const microsPerMessage = (cpu.user + cpu.system) / sent;
  const waits = acceptWaits.sort((x, y) => x - y);
  const acknowledgement =
    waits.length === 0
      ? 'PUBACK waits for nothing'
      : `PUBACK wait p50 ${quantile(waits, 0.5).toFixed(2)} ms, p99 ${quantile(waits, 0.99).toFixed(2)} ms`;
  console.log(
    `${name.padEnd(12)} ${streams} streams × 1 kHz, ${sent} messages, received ${latencies.length}: ` +
      `latency p50 ${quantile(sorted, 0.5).toFixed(2)} ms, p99 ${quantile(sorted, 0.99).toFixed(2)} ms, ` +
      `max ${(sorted.at(-1) ?? 0).toFixed(2)} ms; ${acknowledgement}; Node CPU ${microsPerMessage.toFixed(1)} µs/message` +
      (redisPid === undefined ? '' : `, redis-server CPU ${((redisCpu * 1e6) / sent).toFixed(1)} µs/message`),
  );
}

const server = await startRedisServer();
if ('unavailable' in server) throw new Error(server.unavailable);
try {
  const nodes = [
    await openRedisConnections(server.url, 'bench-a'),
    await openRedisConnections(server.url, 'bench-b'),
  ];
  const [a, b] = nodes.map(
    (redis) => new RedisFanoutBus(redis.commands, new ChannelSubscriptions(redis.subscriber, console.error)),
  ) as [RedisFanoutBus, RedisFanoutBus];
  const local = new InProcessFanoutBus();
  await measure('in-process', local, local);
  await measure('redis hop', a, b, server.pid);
  await Promise.all(nodes.map((redis) => redis.close()));
} finally {
  await server.stop();
}
