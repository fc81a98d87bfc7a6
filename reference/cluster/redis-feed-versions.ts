import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FeedVersions } from '../services/feed-versions.js';
import { redisKeys } from './redis-keys.js';

/**
 * Feed versions in Redis (ADR 0023): a random value per account, so a Redis restarted empty cannot hand out a value a
 * node cached a feed under. It expires long after the feed cache's own age bound, after which no feed cached under it
 * is trusted anyway, so an absent key reads as the empty version.
 */
export class RedisFeedVersions implements FeedVersions {
  constructor(
    private readonly redis: Redis,
    private readonly lifetimeMilliseconds = 3_600_000,
  ) {}

  async read(accountId: string): Promise<string | null> {
    try {
      return (await this.redis.get(redisKeys.feedVersion(accountId))) ?? '';
    } catch (error) {
      console.error('feed versions (redis):', (error as Error).message);
      return null;
    }
  }

  async replace(accountIds: readonly string[]): Promise<void> {
    await Promise.all(
      accountIds.map((accountId) =>
        this.redis.set(redisKeys.feedVersion(accountId), randomUUID(), 'PX', this.lifetimeMilliseconds),
      ),
    );
  }
}
