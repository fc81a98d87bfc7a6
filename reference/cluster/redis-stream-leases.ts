import type { Redis } from 'ioredis';
import type { StreamLeases } from '../ingest/stream-leases.js';
import { redisKeys } from './redis-keys.js';

/** Ends a lease only while it is still this node's (a lease that expired may be another node's by now). */
const releaseScript = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Extends every lease given that is still this node's; returns the keys that were not (lost). */
const refreshScript = `local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2])
  else table.insert(lost, key) end
end
return lost`;

type LeaseRedis = Redis & {
  releaseLease(key: string, nodeId: string): Promise<number>;
  refreshLeases(...keysThenArgs: (string | number)[]): Promise<string[]>;
};

export interface RedisStreamLeasesOptions {
  nodeId: string;
  /** How long a lease outlives its node's last refresh: a dead node's streams are free after at most this. */
  leaseMilliseconds: number;
  /** A lease this node held and lost (Redis restarted, or the node stalled longer than a lease). */
  onLost?: (streamId: string) => void;
}

/**
 * Device leases in Redis (ADR 0023): `SET NX PX` names the node holding a stream's device; the node refreshes its
 * leases every third of their lifetime, so they end within `leaseMilliseconds` of its death, and another node may
 * then take the stream (and idle what the dead node left live).
 */
export class RedisStreamLeases implements StreamLeases {
  readonly #redis: LeaseRedis;
  readonly #held = new Set<string>();
  readonly #timer: NodeJS.Timeout;

  constructor(
    commands: Redis,
    private readonly options: RedisStreamLeasesOptions,
  ) {
    if (!('releaseLease' in commands)) {
      commands.defineCommand('releaseLease', { numberOfKeys: 1, lua: releaseScript });
      commands.defineCommand('refreshLeases', { lua: refreshScript });
    }
    this.#redis = commands as LeaseRedis;
    this.#timer = setInterval(() => void this.#refresh(), Math.max(1, options.leaseMilliseconds / 3));
    this.#timer.unref();
  }

  async acquire(streamId: string): Promise<boolean> {
    const { nodeId, leaseMilliseconds } = this.options;
    const taken = await this.#redis.set(
      redisKeys.deviceLease(streamId),
      nodeId,
      'PX',
      leaseMilliseconds,
      'NX',
    );
    if (taken === 'OK') this.#held.add(streamId);
    return taken === 'OK';
  }

  async release(streamId: string): Promise<void> {
    this.#held.delete(streamId);
    await this.#redis.releaseLease(redisKeys.deviceLease(streamId), this.options.nodeId);
  }

  /** Which node holds a stream's lease, or null. */
  holder(streamId: string): Promise<string | null> {
    return this.#redis.get(redisKeys.deviceLease(streamId));
  }

  close(): void {
    clearInterval(this.#timer);
  }

  async #refresh(): Promise<void> {
    const held = [...this.#held];
    if (held.length === 0) return;
    const keys = held.map(redisKeys.deviceLease);
    try {
      const lost = await this.#redis.refreshLeases(
        keys.length,
        ...keys,
        this.options.nodeId,
        this.options.leaseMilliseconds,
      );
      for (const key of lost) {
        const streamId = held[keys.indexOf(key)];
        if (streamId === undefined || !this.#held.delete(streamId)) continue;
        this.options.onLost?.(streamId);
      }
    } catch (error) {
      console.error('device leases (redis): refresh failed:', (error as Error).message);
    }
  }
}
