import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningService, start } from '../start.js';
import { startPostgresServer } from '../storage/testing/postgres-server.js';
import { type ServiceProcess, startServiceProcess } from '../testing/service-process.js';
import { connectDevice, createStream, eventually, openFeed, topicOf } from './testing/live-clients.js';
import { startRedisServer } from './testing/redis-server.js';
import type { ClusterNode } from './testing/two-nodes.js';

// Opt-in (about 20-30 s with two process starts): .ci/run sets it, `npm test` on a workstation skips it.
const enabled = process.env.TELEMETRY_CLUSTER_KILL_TEST === '1';
const leaseMilliseconds = 1000;
const cleanups: (() => Promise<unknown>)[] = [];

function nodeOf(service: RunningService, key: string): ClusterNode {
  return {
    service,
    async api(method, pathAndQuery, body) {
      const response = await fetch(`${service.urls.baseUrl}${pathAndQuery}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: text === '' ? null : JSON.parse(text),
        headers: response.headers,
      };
    },
  };
}

/** Node A as its own process (so it can be killed), node B in this one; both on one PostgreSQL, Redis, data dir. */
async function twoNodesOneKillable() {
  const redis = await startRedisServer();
  if ('unavailable' in redis) throw new Error(redis.unavailable);
  cleanups.push(() => redis.stop());
  const postgres = await startPostgresServer();
  if ('unavailable' in postgres) throw new Error(postgres.unavailable);
  cleanups.push(() => postgres.stop());
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cluster-kill-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const environment = {
    TELEMETRY_DATA_DIR: dataDir,
    TELEMETRY_POSTGRES_URL: postgres.connectionString,
    TELEMETRY_REDIS_URL: redis.url,
    TELEMETRY_DEVICE_LEASE_MILLISECONDS: String(leaseMilliseconds),
    TELEMETRY_LOG_LEVEL: 'silent',
  };
  const processA: ServiceProcess = startServiceProcess({ ...environment, TELEMETRY_NODE_ID: 'node-a' });
  cleanups.push(() => processA.stop('SIGKILL'));
  const [, key = ''] = await processA.waitFor(/paid account \S+\n\s+secret\s+(\S+)/, 60_000);
  const [, mqttA = ''] = await processA.waitFor(/MQTT\s+(\S+)/);
  const serviceB = await start({
    dataDir,
    postgresUrl: postgres.connectionString,
    redisUrl: redis.url,
    nodeId: 'node-b',
    deviceLeaseMilliseconds: leaseMilliseconds,
  });
  cleanups.push(() => serviceB.stop());
  const nodeA = { service: { urls: { mqttBroker: mqttA } } } as unknown as ClusterNode;
  return { processA, nodeA, nodeB: nodeOf(serviceB, key), redisUrl: redis.url };
}

async function publishSamples(
  device: MqttClient,
  streamId: string,
  from: number,
  count: number,
  acked: number[],
) {
  for (let ts = from; ts < from + count; ts += 1) {
    await device.publishAsync(topicOf(streamId), JSON.stringify({ ts, values: { rpm: ts } }), { qos: 1 });
    acked.push(ts);
  }
}

describe.skipIf(!enabled)('kill -9 of a node during ingest (ADR 0023)', () => {
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it('the device reconnects to the other node and continues; no sample node A acknowledged is missing', async () => {
    const { processA, nodeA, nodeB } = await twoNodesOneKillable();
    const stream = await createStream(nodeB);
    const feed = await openFeed(nodeB, stream.id);
    await new Promise((resolve) => setTimeout(resolve, 200)); // B's SUBSCRIBE round trip
    const onA = await connectDevice(nodeA, stream);
    const acked: number[] = [];
    await publishSamples(onA, stream.id, 0, 100, acked);
    // Keep publishing while the node dies.
    const dying = publishSamples(onA, stream.id, 100, 1000, acked).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    const killedAt = Date.now();
    await processA.stop('SIGKILL');
    onA.end(true);
    await dying;
    // B refuses the device while A's lease lives, then takes the stream over (device.offline of A's session first).
    let onB: MqttClient | undefined;
    await eventually(async () => {
      onB = await connectDevice(nodeB, stream).catch(() => undefined);
      return onB !== undefined;
    }, 10_000);
    const takeoverMilliseconds = Date.now() - killedAt;
    expect(takeoverMilliseconds).toBeLessThan(leaseMilliseconds * 5);
    const resumedFrom = 10_000;
    await publishSamples(onB as MqttClient, stream.id, resumedFrom, 100, acked);
    await eventually(() => feed.telemetry().some((message) => message.sample.ts === resumedFrom + 99));
    const received = feed.telemetry().map((message) => message.sample.ts as number);
    // Every sample acknowledged by either node reached the subscriber on B, in order, numbered in one sequence.
    expect(received).toEqual(acked);
    const seqs = feed.messages.map((message) => message.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect((await nodeB.api('GET', `/streams/${stream.id}`)).body.status).toBe('live');
    await (onB as MqttClient).endAsync();
    await eventually(async () => (await nodeB.api('GET', `/streams/${stream.id}`)).body.status === 'idle');
    feed.close();
    console.info(`node A killed: the device was back on node B after ${takeoverMilliseconds} ms`);
  });
});
