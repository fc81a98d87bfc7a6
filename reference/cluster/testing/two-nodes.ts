import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type RunningService, type StartOptions, start } from '../../start.js';
import { startPostgresServer } from '../../storage/testing/postgres-server.js';
import { startRedisServer } from './redis-server.js';

/** A REST answer: status, parsed body and headers. */
// biome-ignore lint/suspicious/noExplicitAny: tests read the parsed JSON of whichever operation they call.
export type Answer = { status: number; body: any; headers: Headers };

export interface ClusterNode {
  service: RunningService;
  /** A REST call with `key` (the paid account's secret key by default). */
  api(method: string, pathAndQuery: string, body?: unknown, key?: string): Promise<Answer>;
}

export interface Topology {
  nodes: [ClusterNode, ClusterNode];
  postgresUrl: string;
  redisUrl: string;
  dataDir: string;
  /** The seeded paid account's secret key. */
  key: string;
  seeded: NonNullable<RunningService['seeded']>;
  stop(): Promise<void>;
}

function clusterNode(service: RunningService, defaultKey: string): ClusterNode {
  return {
    service,
    async api(method, pathAndQuery, body, key = defaultKey) {
      const response = await fetch(`${service.urls.baseUrl}${pathAndQuery}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
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

/**
 * PostgreSQL and Redis on free loopback ports and two nodes of the service in this process, sharing both and one
 * data directory (the signing key). Node A starts first: it migrates and seeds. `unavailable` when a server is missing.
 */
export async function startTopology(
  overrides: Partial<StartOptions> | ((nodeIndex: number) => Partial<StartOptions>) = {},
): Promise<Topology | { unavailable: string }> {
  const overridesOf = typeof overrides === 'function' ? overrides : () => overrides;
  const redis = await startRedisServer();
  if ('unavailable' in redis) return redis;
  const postgres = await startPostgresServer();
  if ('unavailable' in postgres) {
    await redis.stop();
    return postgres;
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cluster-'));
  const options = (nodeId: string, nodeIndex: number): StartOptions => ({
    dataDir,
    postgresUrl: postgres.connectionString,
    redisUrl: redis.url,
    nodeId,
    allowPrivateWebhookTargets: true,
    webhookLog: { info: () => {} },
    ...overridesOf(nodeIndex),
  });
  const first = await start(options('node-a', 0));
  const second = await start(options('node-b', 1));
  const seeded = first.seeded;
  if (seeded === null) throw new Error('node A did not seed a fresh database');
  const key = seeded.accounts.paid.keys.secret.key;
  return {
    nodes: [clusterNode(first, key), clusterNode(second, key)],
    postgresUrl: postgres.connectionString,
    redisUrl: redis.url,
    dataDir,
    key,
    seeded,
    async stop() {
      await Promise.allSettled([first.stop(), second.stop()]);
      await Promise.allSettled([redis.stop(), postgres.stop()]);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
