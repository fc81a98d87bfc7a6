import { LRUCache } from 'lru-cache';
import type { Clock } from './clock.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  windowSeconds: number;
  /** Seconds until the current window ends (rounded up, at least 1 while limited). */
  resetSeconds: number;
}

/** Counts requests against windows: in process (one node), or shared by every node (Redis, ADR 0023). */
export interface RateLimiter {
  take(key: string, limit: number): RateDecision | Promise<RateDecision>;
}

/** A limiter that can also say, without counting, whether a key already used its window up (per-address windows). */
export interface PeekableRateLimiter extends RateLimiter {
  peek(key: string, limit: number): RateDecision | Promise<RateDecision>;
}

/** Windows kept at most (ADR 0014): far more than the credentials or addresses active in one window. */
export const defaultMaxWindows = 100_000;

/**
 * A fixed window per credential (the spec's `x-rate-limit.window`), or per client address: the first request opens
 * a window of `windowSeconds`; at most `limit` requests are admitted in it. Each key has its own window, so one
 * key's exhaustion never affects another. Memory stays bounded: windows live in an LRU of `maxWindows` entries, each
 * dropped once its window ends.
 */
export class FixedWindowRateLimiter implements PeekableRateLimiter {
  readonly #windows: LRUCache<string, { startedAt: number; count: number }>;

  constructor(
    private readonly clock: Clock,
    private readonly windowSeconds: number,
    maxWindows = defaultMaxWindows,
  ) {
    this.#windows = new LRUCache({ max: maxWindows });
  }

  /** Counts a request against `key`'s window and says whether it is admitted. */
  take(key: string, limit: number): RateDecision {
    return this.#decide(key, limit, true);
  }

  /** What `take` would answer, without counting: whether `key` already used up its window. */
  peek(key: string, limit: number): RateDecision {
    return this.#decide(key, limit, false);
  }

  #decide(key: string, limit: number, count: boolean): RateDecision {
    const now = this.clock.now();
    const windowMilliseconds = this.windowSeconds * 1000;
    let window = this.#windows.get(key);
    if (window === undefined || now - window.startedAt >= windowMilliseconds) {
      window = { startedAt: now, count: 0 };
      if (count) this.#windows.set(key, window);
    }
    const allowed = window.count < limit;
    if (allowed && count) window.count += 1;
    const resetSeconds = Math.max(1, Math.ceil((window.startedAt + windowMilliseconds - now) / 1000));
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - window.count),
      windowSeconds: this.windowSeconds,
      resetSeconds,
    };
  }
}

/** The IETF RateLimit fields and Retry-After, in the syntax of the spec's RateLimitPolicy and RateLimit headers. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'RateLimit-Policy': policyText(decision.limit, decision.windowSeconds),
    RateLimit: `"per-key";r=${decision.remaining};t=${decision.resetSeconds}`,
    ...(decision.allowed ? {} : { 'Retry-After': String(decision.resetSeconds) }),
  };
}

/** The policy field's text by window and limit: the same few plans answer every request. */
const policyTexts = new Map<number, Map<number, string>>();

function policyText(limit: number, windowSeconds: number): string {
  let byLimit = policyTexts.get(windowSeconds);
  if (byLimit === undefined) {
    byLimit = new Map();
    policyTexts.set(windowSeconds, byLimit);
  }
  let text = byLimit.get(limit);
  if (text === undefined) {
    text = `"per-key";q=${limit};w=${windowSeconds}`;
    byLimit.set(limit, text);
  }
  return text;
}

// Fastify keeps header names in lower case: named so, each request spares a toLowerCase and a string-table lookup a
// header (issue 16). Wire names do not change; Fastify writes them in lower case either way.
const policyHeader = 'RateLimit-Policy'.toLowerCase();
const limitHeader = 'RateLimit'.toLowerCase();

/**
 * The fields of an admitted request, set one by one on the reply: no object of fields built and walked per request
 * (`rateLimitHeaders` keeps the refusal's, which adds Retry-After).
 */
export function setRateLimitHeaders(
  reply: { header(name: string, value: string): unknown },
  decision: RateDecision,
): void {
  reply.header(policyHeader, policyText(decision.limit, decision.windowSeconds));
  reply.header(limitHeader, `"per-key";r=${decision.remaining};t=${decision.resetSeconds}`);
}
