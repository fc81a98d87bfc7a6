import { describe, expect, it } from 'vitest';
import { apiPolicies } from '../generated/types/facts.js';
import { ManualClock } from './clock.js';
import { FixedWindowRateLimiter, rateLimitHeaders } from './rate-limiter.js';

const windowSeconds = apiPolicies.rateLimit.windowSeconds;

describe('fixed-window rate limiter', () => {
  it('admits the limit, refuses the next, and opens a new window when the old one ends', () => {
    const clock = new ManualClock(0);
    const limiter = new FixedWindowRateLimiter(clock, windowSeconds);
    const decisions = Array.from({ length: 61 }, () => limiter.take('key_a', 60));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(60);
    expect(decisions[60]).toMatchObject({ allowed: false, remaining: 0, resetSeconds: windowSeconds });
    clock.advance(windowSeconds * 1000 - 1);
    expect(limiter.take('key_a', 60).allowed).toBe(false);
    clock.advance(1);
    expect(limiter.take('key_a', 60)).toMatchObject({ allowed: true, remaining: 59 });
  });

  it('keeps credentials apart', () => {
    const limiter = new FixedWindowRateLimiter(new ManualClock(0), windowSeconds);
    for (let request = 0; request < 61; request += 1) limiter.take('key_a', 60);
    expect(limiter.take('key_b', 60)).toMatchObject({ allowed: true, remaining: 59 });
  });

  it('renders the headers of the spec', () => {
    const limiter = new FixedWindowRateLimiter(new ManualClock(0), 60);
    limiter.take('key', 1);
    const headers = rateLimitHeaders(limiter.take('key', 1));
    expect(headers).toEqual({
      'RateLimit-Policy': '"per-key";q=1;w=60',
      RateLimit: '"per-key";r=0;t=60',
      'Retry-After': '60',
    });
  });

  it('peeks without counting', () => {
    const limiter = new FixedWindowRateLimiter(new ManualClock(0), windowSeconds);
    expect(limiter.peek('key', 1).allowed).toBe(true);
    expect(limiter.take('key', 1).allowed).toBe(true);
    expect(limiter.peek('key', 1).allowed).toBe(false);
  });

  it('keeps at most its cap of windows, so many distinct addresses cannot grow memory (issue 12, item 3)', () => {
    const limiter = new FixedWindowRateLimiter(new ManualClock(0), windowSeconds, 2);
    limiter.take('first', 1);
    limiter.take('second', 1);
    limiter.take('third', 1);
    // The least recently used window was dropped: "first" starts afresh.
    expect(limiter.take('first', 1).allowed).toBe(true);
    expect(limiter.take('third', 1).allowed).toBe(false);
  });
});
