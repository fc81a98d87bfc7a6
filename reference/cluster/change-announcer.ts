import { cachedStore, newStoreCaches } from '../storage/cached-store.js';
import type { Store } from '../storage/store.js';
import { openRedisConnections } from './redis-connections.js';
import { redisKeys } from './redis-keys.js';

/**
 * For a process that changes keys and accounts without serving requests (`npm run keys`): its changes are announced
 * to the running nodes like a node's own, so a key revoked from the command line is refused at once everywhere.
 */
export async function openChangeAnnouncer(
  redisUrl: string,
  name: string,
): Promise<{ wrap(store: Store): Store; close(): Promise<void> }> {
  const redis = await openRedisConnections(redisUrl, name);
  const sent: Promise<unknown>[] = [];
  return {
    wrap: (store) =>
      cachedStore(store, newStoreCaches(1), (change) => {
        const publishing = redis.commands
          .publish(redisKeys.invalidationChannel, JSON.stringify({ from: name, change }))
          .catch((error: Error) => console.error('cache invalidation (redis):', error.message));
        sent.push(publishing);
      }),
    // Auto-pipelined publishes wait for the next tick while QUIT leaves at once: every announcement is awaited first.
    async close() {
      await Promise.all(sent);
      await redis.close();
    },
  };
}
