import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Stream } from '../../generated/types/schemas.js';
import { subscriberCountCoalesceMilliseconds } from '../fanout/live-feed-rules.js';
import type { SubscriberCounts } from '../fanout/subscriber-counts.js';
import type { RedisFanoutBus } from './redis-fanout-bus.js';
import { redisKeys } from './redis-keys.js';

/**
 * Sets (or removes) this node's count in the stream's hash, sums the counts of nodes still alive (a field whose node
 * key expired is a dead node's and is dropped), and when ARGV[4] is 1 numbers and publishes the status message with
 * the sum, in the same script: every subscriber sees the counts in the order Redis computed them. A message opens the
 * stream's coalescing window (KEYS[4], ARGV[6] ms) for every node; inside it nothing is published and the window's
 * remaining milliseconds come back, so the caller can announce once it ends.
 */
const countScript = `if tonumber(ARGV[2]) > 0 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
else redis.call('HDEL', KEYS[1], ARGV[1]) end
local total = 0
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  if redis.call('EXISTS', ARGV[3] .. fields[i]) == 1 then total = total + tonumber(fields[i + 1])
  else redis.call('HDEL', KEYS[1], fields[i]) end
end
if ARGV[4] == '1' then
  if not redis.call('SET', KEYS[4], '1', 'NX', 'PX', ARGV[6]) then return {total, math.max(1, redis.call('PTTL', KEYS[4]))} end
  local seq = redis.call('INCR', KEYS[2])
  redis.call('PUBLISH', KEYS[3], seq .. '\\n[' .. ARGV[5] .. total .. '}]')
end
return {total, 0}`;

type CountingRedis = Redis & {
  countSubscribers(...keysThenArgs: (string | number)[]): Promise<[number, number]>;
};

/**
 * subscriberCount over every node (ADR 0023): a Redis hash per stream holds each node's count, keyed by this node's
 * instance (node id and a random part, so a restarted node does not inherit its predecessor's counts). The node key
 * is refreshed every `aliveMilliseconds` / 3 and expires after `aliveMilliseconds`, so a killed node's subscribers
 * stop counting at the next change after that.
 */
export class RedisSubscriberCounts implements SubscriberCounts {
  readonly #redis: CountingRedis;
  readonly #instance: string;
  readonly #timer: NodeJS.Timeout;
  /** Per stream: this node's latest count and status message, and the announcement owed when the window ends. */
  readonly #latest = new Map<string, { local: number; prefix: string }>();
  readonly #owed = new Map<string, NodeJS.Timeout>();

  constructor(
    commands: Redis,
    private readonly bus: RedisFanoutBus,
    nodeId: string,
    private readonly aliveMilliseconds: number,
    private readonly onError: (error: unknown) => void,
  ) {
    if (!('countSubscribers' in commands))
      commands.defineCommand('countSubscribers', { numberOfKeys: 4, lua: countScript });
    this.#redis = commands as CountingRedis;
    this.#instance = `${nodeId}:${randomUUID()}`;
    this.#timer = setInterval(() => this.#alive(), aliveMilliseconds / 3);
    this.#timer.unref();
  }

  /** Marks this node alive before it counts anything. */
  async start(): Promise<void> {
    await this.#alive();
  }

  changed(streamId: string, status: Stream['status'], local: number, announce: boolean): Promise<number> {
    // What this node published before goes first, so the status message keeps its place among them.
    if (announce) this.bus.flush();
    const prefix = `${JSON.stringify({ type: 'status', streamId, status }).slice(0, -1)},"subscriberCount":`;
    if (local === 0) this.#latest.delete(streamId);
    else this.#latest.set(streamId, { local, prefix });
    return this.#count(streamId, local, announce ? prefix : null);
  }

  current(streamId: string, local: number): Promise<number> {
    return this.#count(streamId, local, null);
  }

  close(): void {
    clearInterval(this.#timer);
    for (const timer of this.#owed.values()) clearTimeout(timer);
    this.#owed.clear();
  }

  async #count(streamId: string, local: number, announcePrefix: string | null): Promise<number> {
    const [total, windowLeft] = await this.#redis.countSubscribers(
      redisKeys.subscriberCounts(streamId),
      redisKeys.sequence(streamId),
      redisKeys.liveChannel(streamId),
      redisKeys.countWindow(streamId),
      this.#instance,
      local,
      redisKeys.nodeAlive(''),
      announcePrefix === null ? 0 : 1,
      announcePrefix ?? '',
      subscriberCountCoalesceMilliseconds,
    );
    if (windowLeft > 0 && announcePrefix !== null) this.#announceLater(streamId, announcePrefix, windowLeft);
    return total;
  }

  /**
   * A message opened the window: this change is owed once it ends. An owed announcement that finds a window open
   * again waits for that one too: the window may still be the one it waited for (this process's timer and Redis's
   * expiry are a millisecond apart), whose message was summed before this node's change, so dropping it lost the
   * change (a subscriber on another node never heard that this node's last subscriber left).
   */
  #announceLater(streamId: string, prefix: string, milliseconds: number): void {
    if (this.#owed.has(streamId)) return;
    const timer = setTimeout(() => {
      this.#owed.delete(streamId);
      const latest = this.#latest.get(streamId) ?? { local: 0, prefix };
      this.#count(streamId, latest.local, latest.prefix).catch(this.onError);
    }, milliseconds + 1);
    timer.unref();
    this.#owed.set(streamId, timer);
  }

  async #alive(): Promise<void> {
    await this.#redis
      .set(redisKeys.nodeAlive(this.#instance), '1', 'PX', this.aliveMilliseconds)
      .catch(this.onError);
  }
}
