import { describe, expect, it } from 'vitest';
import { accountPlanMembers } from '../../../generated/types/facts.js';
import { CheckFailure } from '../../harness/check.js';
import type { Exchange } from '../../harness/probe.js';
import { type Burst, type BurstAllowance, stepAfterBurst, windowSeconds } from './auth-rate-limit.js';

const limit = accountPlanMembers.free.requestsPerMinute;

interface Fields {
  /** RateLimit's remainder; the fields are left out when undefined. */
  remaining?: number | undefined;
  retryAfter?: number;
}

function answer(status: number, { remaining, retryAfter }: Fields): Exchange {
  const headers: Record<string, string> = {};
  if (remaining !== undefined) {
    headers['ratelimit-policy'] = `"per-key";q=${limit};w=${windowSeconds}`;
    headers.ratelimit = `"per-key";r=${remaining};t=${retryAfter ?? windowSeconds}`;
  }
  if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
  return {
    request: { method: 'GET', url: 'http://127.0.0.1/v2/account', headers: {} },
    response: { status, headers, body: null, text: '' },
  };
}

/** A burst of limit + 1 requests: the admitted answers' remainders in order, then `refused` 429s. */
function burstOf(remainders: Array<number | undefined>, refused: Fields[] = []): Burst {
  return {
    limit,
    earlier: 0,
    admitted: remainders.map((remaining) => answer(200, { remaining })),
    limited: refused.map((fields) => answer(429, fields)),
    others: [],
    elapsedSeconds: 0.05,
  };
}

const countdown = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, index) => from - index);
const unused: BurstAllowance = { again: true, wait: true, afterAllAdmitted: false };
const refusals = (count: number, fields: Fields) => Array.from({ length: count }, () => fields);

describe('stepAfterBurst', () => {
  it('judges a burst in a window of its own: the limit admitted, the rest refused', () => {
    const burst = burstOf(countdown(limit - 1, 0), [{ remaining: 0, retryAfter: windowSeconds }]);
    expect(stepAfterBurst(burst, unused)).toEqual({ next: 'judge' });
    expect(burst.earlier).toBe(0);
  });

  it('bursts again at once when a window opened by earlier checks ended mid-burst and nothing was refused', () => {
    // The run that failed in CI: 11 requests filled the old window's rest, the other 50 opened a new window.
    const rolledOver = burstOf([...countdown(10, 0), ...countdown(limit - 1, 10)]);
    expect(rolledOver.admitted).toHaveLength(limit + 1);
    expect(stepAfterBurst(rolledOver, unused)).toEqual({ next: 'again' });

    // The second burst meets the new window's rest; the fields account for the 50 before it.
    const second = burstOf(countdown(9, 0), refusals(51, { remaining: 0, retryAfter: windowSeconds }));
    const afterAgain = { again: false, wait: true, afterAllAdmitted: true };
    expect(stepAfterBurst(second, afterAgain)).toEqual({ next: 'judge' });
    expect(second.earlier).toBe(limit - 10);
  });

  it('waits for a window of its own after a rollover when the target sends no RateLimit fields', () => {
    const second = burstOf(
      countdown(9, 0).map(() => undefined),
      refusals(51, { retryAfter: windowSeconds }),
    );
    const afterAgain = { again: false, wait: true, afterAllAdmitted: true };
    expect(stepAfterBurst(second, afterAgain)).toEqual({ next: 'wait', seconds: windowSeconds + 1 });
  });

  it('fails a target that refuses nothing in two bursts at once', () => {
    const all = () => burstOf(countdown(limit, 0).map(() => undefined));
    expect(stepAfterBurst(all(), unused)).toEqual({ next: 'again' });
    expect(() => stepAfterBurst(all(), { again: false, wait: true, afterAllAdmitted: true })).toThrow(
      /all were admitted/,
    );
  });

  it('waits once for a window that opened before the burst and whose earlier requests the target does not count', () => {
    const burst = burstOf(
      countdown(29, 0).map(() => undefined),
      refusals(31, { retryAfter: windowSeconds - 30 }),
    );
    expect(stepAfterBurst(burst, unused)).toEqual({ next: 'wait', seconds: windowSeconds - 29 });
    expect(() => stepAfterBurst(burst, { again: true, wait: false, afterAllAdmitted: false })).toThrow(
      CheckFailure,
    );
  });

  it('fails a target that refuses before the limit in a window of the burst’s own', () => {
    // Its fields say one request was left when it refused.
    const burst = burstOf(countdown(limit - 1, 1), refusals(2, { remaining: 0, retryAfter: windowSeconds }));
    expect(() => stepAfterBurst(burst, unused)).toThrow(`exactly ${limit} admitted`);
  });

  it('fails a target whose remainders do not count down one per admitted request', () => {
    const burst = burstOf(
      countdown(limit - 1, 10),
      refusals(11, { remaining: 0, retryAfter: windowSeconds }),
    );
    expect(() => stepAfterBurst(burst, unused)).toThrow(`got ${limit - 10} admitted`);
  });

  it('fails a burst with an answer neither admitted nor refused', () => {
    const burst = burstOf(countdown(limit - 1, 0), [{ remaining: 0, retryAfter: windowSeconds }]);
    burst.others.push(answer(500, {}));
    expect(() => stepAfterBurst(burst, unused)).toThrow(/others/);
  });
});
