import type { Redis } from 'ioredis';
import { type CacheChange, clearCaches, forgetChange, type StoreCaches } from '../storage/cached-store.js';
import type { ChannelSubscriptions } from './channel-subscriptions.js';
import { redisKeys } from './redis-keys.js';

export interface CacheInvalidation {
  /** Tells every other node to drop what a change made stale. */
  announce(change: CacheChange): void;
  close(): void;
}

/**
 * Keeps the API-key and account caches of every node honest (ADR 0023): a node that revokes, rolls or creates a key
 * publishes the change and every node drops it on receipt (one pub/sub hop, milliseconds). Pub/sub is at most once,
 * so a node whose subscriber connection comes back clears its caches whole (it may have missed changes), and the
 * caches' TTL bounds staleness should a message be lost otherwise.
 */
export async function startCacheInvalidation(
  commands: Redis,
  subscriber: Redis,
  subscriptions: ChannelSubscriptions,
  caches: StoreCaches,
  nodeId: string,
): Promise<CacheInvalidation> {
  const onMessage = (raw: string) => {
    const { from, change } = JSON.parse(raw) as { from: string; change: CacheChange };
    if (from !== nodeId) forgetChange(caches, change);
  };
  const clearAll = () => clearCaches(caches);
  await subscriptions.add(redisKeys.invalidationChannel, onMessage);
  subscriber.on('ready', clearAll);
  return {
    announce(change) {
      commands
        .publish(redisKeys.invalidationChannel, JSON.stringify({ from: nodeId, change }))
        .catch((error: Error) => console.error('cache invalidation (redis):', error.message));
    },
    close() {
      subscriber.off('ready', clearAll);
      subscriptions.remove(redisKeys.invalidationChannel, onMessage);
    },
  };
}
