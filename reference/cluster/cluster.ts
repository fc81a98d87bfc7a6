import { hostname } from 'node:os';
import { apiPolicies } from '../../generated/types/facts.js';
import type { Clock } from '../clock.js';
import type { StreamLifecycle, StreamLifecycleEvents } from '../services/stream-lifecycle.js';
import {
  type ChangeWitness,
  cachedStore,
  newStoreCaches,
  type StoreCaches,
} from '../storage/cached-store.js';
import type { Store } from '../storage/store.js';
import { startCacheInvalidation } from './cache-invalidation.js';
import { ChannelSubscriptions } from './channel-subscriptions.js';
import { openRedisConnections } from './redis-connections.js';
import { RedisFanoutBus } from './redis-fanout-bus.js';
import { RedisFeedVersions } from './redis-feed-versions.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';
import { RedisStreamLeases } from './redis-stream-leases.js';
import { RedisSubscriberCounts } from './redis-subscriber-counts.js';
import { shareStreamDeletions } from './stream-deletions.js';

/** Deployment settings, not interface facts: how fast a dead node's streams free up, how stale a cache may get. */
export const clusterDefaults = { deviceLeaseMilliseconds: 5000, keyCacheMilliseconds: 1000 } as const;

export interface ClusterOptions {
  redisUrl: string;
  nodeId?: string | undefined;
  clock: Clock;
  timeScale: number;
  deviceLeaseMilliseconds?: number | undefined;
  keyCacheMilliseconds?: number | undefined;
}

/** What a node of several uses instead of its in-process pieces (ADR 0023). */
export interface Cluster {
  nodeId: string;
  bus: RedisFanoutBus;
  leases: RedisStreamLeases;
  rateLimiter: RedisRateLimiter;
  /** subscriberCount summed over every node alive. */
  subscriberCounts: RedisSubscriberCounts;
  /** Report feed versions: a feed cached on one node is checked against every node's writes. */
  feedVersions: RedisFeedVersions;
  /** Stream deletions told to `local` here and on every other node (their subscribers are closed there too). */
  sharedLifecycle(local: StreamLifecycleEvents): Promise<StreamLifecycle>;
  /** The caches of API keys and accounts, which `cached` fills and the database's notifications empty too. */
  caches: StoreCaches;
  /** The store with API keys and accounts cached, changes announced to and heard from every node. */
  cached(store: Store, witness?: ChangeWitness): Store;
  /** Runs `idleOrphans` every lease lifetime: streams left live by a dead node go idle. */
  sweep(idleOrphans: () => Promise<unknown>): void;
  close(): Promise<void>;
}

export function defaultNodeId(): string {
  return `${hostname()}-${process.pid}`;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const nodeId = options.nodeId ?? defaultNodeId();
  const leaseMilliseconds = options.deviceLeaseMilliseconds ?? clusterDefaults.deviceLeaseMilliseconds;
  const redis = await openRedisConnections(options.redisUrl, nodeId);
  const onError = (error: unknown) => console.error('cluster:', error);
  const subscriptions = new ChannelSubscriptions(redis.subscriber, onError);
  const caches = newStoreCaches(
    undefined,
    options.keyCacheMilliseconds ?? clusterDefaults.keyCacheMilliseconds,
  );
  const invalidation = await startCacheInvalidation(
    redis.commands,
    redis.subscriber,
    subscriptions,
    caches,
    nodeId,
  );
  const leases = new RedisStreamLeases(redis.commands, {
    nodeId,
    leaseMilliseconds,
    onLost: (streamId) =>
      console.error(`cluster: node ${nodeId} lost the device lease of stream ${streamId}`),
  });
  const bus = new RedisFanoutBus(redis.commands, subscriptions);
  const subscriberCounts = new RedisSubscriberCounts(redis.commands, bus, nodeId, leaseMilliseconds, onError);
  await subscriberCounts.start();
  const windowSeconds = apiPolicies.rateLimit.windowSeconds;
  let sweeper: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> | undefined;
  let deletions: { close(): void } | undefined;
  return {
    nodeId,
    bus,
    leases,
    subscriberCounts,
    feedVersions: new RedisFeedVersions(redis.commands),
    rateLimiter: new RedisRateLimiter(redis.commands, options.clock, windowSeconds, options.timeScale),
    caches,
    cached: (store, witness) => cachedStore(store, caches, invalidation.announce, witness),
    async sharedLifecycle(local) {
      const shared = await shareStreamDeletions(redis.commands, subscriptions, local, nodeId);
      deletions = shared;
      return shared.lifecycle;
    },
    sweep(idleOrphans) {
      sweeper = setInterval(() => {
        if (sweeping !== undefined) return;
        sweeping = idleOrphans()
          .catch(onError)
          .finally(() => {
            sweeping = undefined;
          });
      }, leaseMilliseconds);
      sweeper.unref();
    },
    async close() {
      clearInterval(sweeper);
      await sweeping;
      leases.close();
      subscriberCounts.close();
      invalidation.close();
      deletions?.close();
      await redis.close();
    },
  };
}
