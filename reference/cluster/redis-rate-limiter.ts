import type { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import { FixedWindowRateLimiter, type PeekableRateLimiter, type RateDecision } from '../rate-limiter.js';
import { redisKeys } from './redis-keys.js';

/**
 * The fixed window of FixedWindowRateLimiter, kept in one Redis hash per key so every node counts against the same
 * window: the first request opens it at the caller's service-clock time (the nodes share the clock's anchor in the
 * store), at most `limit` requests are admitted in it. The key's wall-clock expiry only frees memory.
 */
const takeScript = `local now = tonumber(ARGV[1])
local start = tonumber(redis.call('HGET', KEYS[1], 's'))
local count = 0
if start == nil or now - start >= tonumber(ARGV[2]) then
  start = now
  redis.call('HSET', KEYS[1], 's', ARGV[1], 'c', 0)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
else
  count = tonumber(redis.call('HGET', KEYS[1], 'c'))
end
local allowed = 0
if count < tonumber(ARGV[3]) then
  count = redis.call('HINCRBY', KEYS[1], 'c', 1)
  allowed = 1
end
return {allowed, count, start}`;

/** What `take` would answer, without counting: the window's start and count, or a window not opened yet. */
const peekScript = `local now = tonumber(ARGV[1])
local window = redis.call('HMGET', KEYS[1], 's', 'c')
local start = tonumber(window[1])
if start == nil or now - start >= tonumber(ARGV[2]) then
  return {1, 0, now}
end
local count = tonumber(window[2]) or 0
local allowed = 0
if count < tonumber(ARGV[3]) then
  allowed = 1
end
return {allowed, count, start}`;

type WindowRedis = Redis & {
  peekRateWindow(key: string, now: number, windowMs: number, limit: number): Promise<number[]>;
  takeRateWindow(
    key: string,
    now: number,
    windowMs: number,
    limit: number,
    expireMs: number,
  ): Promise<number[]>;
};

/**
 * Shared windows for both kinds of the spec's `x-rate-limit`: a credential's (`take`) and a client address's
 * (`x-rate-limit.perAddress`, which also needs `peek`: the token endpoint refuses a refused address before checking).
 */
export class RedisRateLimiter implements PeekableRateLimiter {
  readonly #redis: WindowRedis;
  /** While Redis cannot answer, each node limits on its own rather than refusing every request. */
  readonly #fallback: FixedWindowRateLimiter;
  readonly #expireMilliseconds: number;

  constructor(
    commands: Redis,
    private readonly clock: Clock,
    private readonly windowSeconds: number,
    timeScale: number,
  ) {
    if (!('takeRateWindow' in commands))
      commands.defineCommand('takeRateWindow', { numberOfKeys: 1, lua: takeScript });
    if (!('peekRateWindow' in commands))
      commands.defineCommand('peekRateWindow', { numberOfKeys: 1, lua: peekScript });
    this.#redis = commands as WindowRedis;
    this.#fallback = new FixedWindowRateLimiter(clock, windowSeconds);
    // A window lasts windowSeconds of service time: in wall time that is longer when the clock runs slower.
    this.#expireMilliseconds = Math.ceil((windowSeconds * 1000) / Math.min(1, timeScale)) + 1000;
  }

  async take(key: string, limit: number): Promise<RateDecision> {
    const now = Math.floor(this.clock.now());
    const windowMilliseconds = this.windowSeconds * 1000;
    try {
      const reply = await this.#redis.takeRateWindow(
        redisKeys.rateWindow(key),
        now,
        windowMilliseconds,
        limit,
        this.#expireMilliseconds,
      );
      return this.#decision(reply, now, limit);
    } catch (error) {
      console.error('rate limit (redis): falling back to this node’s window:', (error as Error).message);
      return this.#fallback.take(key, limit);
    }
  }

  async peek(key: string, limit: number): Promise<RateDecision> {
    const now = Math.floor(this.clock.now());
    try {
      const reply = await this.#redis.peekRateWindow(
        redisKeys.rateWindow(key),
        now,
        this.windowSeconds * 1000,
        limit,
      );
      return this.#decision(reply, now, limit);
    } catch (error) {
      console.error('rate limit (redis): falling back to this node’s window:', (error as Error).message);
      return this.#fallback.peek(key, limit);
    }
  }

  #decision(reply: number[], now: number, limit: number): RateDecision {
    const [allowed = 0, count = 0, startedAt = now] = reply;
    return {
      allowed: allowed === 1,
      limit,
      remaining: Math.max(0, limit - count),
      windowSeconds: this.windowSeconds,
      resetSeconds: Math.max(1, Math.ceil((startedAt + this.windowSeconds * 1000 - now) / 1000)),
    };
  }
}
