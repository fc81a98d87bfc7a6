import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  defaultRetryPolicy,
  isRetryable,
  type RetryPolicy,
  retryAfterMs,
  retryDelay,
} from './retry.js';

const now = Date.parse('2026-11-14T08:00:00Z');
const policy: RetryPolicy = { ...defaultRetryPolicy, random: () => 0.5, now: () => now };

describe('retry policy', () => {
  it.each([
    ['POST', 429, true],
    ['PATCH', 429, true],
    ['GET', 503, true],
    ['DELETE', 500, true],
    ['PUT', null, true],
    ['POST', 500, false],
    ['PATCH', 503, false],
    ['POST', null, false],
    ['GET', 501, false],
    ['GET', 400, false],
    ['GET', 404, false],
  ] as const)('%s answered %s: retry %s', (method, status, want) => {
    expect(isRetryable(method, status)).toBe(want);
  });

  it.each([
    ['2', 2000],
    ['0', 0],
    ['1.5', 1500],
    ['Sat, 14 Nov 2026 08:00:42 GMT', 42_000],
    ['Sat, 14 Nov 2026 07:59:00 GMT', 0],
    ['soon', null],
    ['', null],
    [null, null],
  ] as const)('reads Retry-After %j as %s ms', (header, want) => {
    expect(retryAfterMs(header, now)).toBe(want);
  });

  it('keeps full jitter within [0, min(max, base × 2^(retry − 1)))', () => {
    const bounds = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect([1, 2, 3, 4, 5].map((retry) => backoffMs(retry, { ...bounds, random: () => 0 }))).toEqual([
      0, 0, 0, 0, 0,
    ]);
    const highest = [1, 2, 3, 4, 5].map((retry) => backoffMs(retry, { ...bounds, random: () => 0.999999 }));
    expect(highest).toEqual([99, 199, 399, 799, 999]);
  });

  it('waits what Retry-After asks, without jitter, and gives up beyond the policy ceiling', () => {
    expect(retryDelay('POST', 1, { status: 429, retryAfter: '3' }, policy)).toBe(3000);
    expect(retryDelay('GET', 1, { status: 503, retryAfter: '120' }, policy)).toBeNull();
  });

  it('backs off exponentially when no Retry-After is given, and stops after the last attempt', () => {
    expect(retryDelay('GET', 1, { status: 503, retryAfter: null }, policy)).toBe(250);
    expect(retryDelay('GET', 2, { status: 503, retryAfter: null }, policy)).toBe(500);
    expect(retryDelay('GET', 3, { status: 503, retryAfter: null }, policy)).toBeNull();
    expect(retryDelay('GET', 1, null, policy)).toBe(250);
    expect(retryDelay('POST', 1, null, policy)).toBeNull();
  });
});
