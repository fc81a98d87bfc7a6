import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountPlanMembers, apiPolicies } from '../../generated/types/facts.js';
import { KeyPool } from './key-pool.js';

const budget = Math.floor(accountPlanMembers.paid.requestsPerMinute * 0.9);
const windowMilliseconds = apiPolicies.rateLimit.windowSeconds * 1000;

async function take(pool: KeyPool, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let index = 0; index < count; index++) keys.push(await pool.next());
  return keys;
}

describe('KeyPool', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses to exist without keys', () => {
    expect(() => new KeyPool([])).toThrow(/at least one key/);
  });

  it('takes the keys in turn from its offset, each up to its budget below the paid limit', async () => {
    const pool = new KeyPool(['first', 'second'], 1);
    const keys = await take(pool, 2 * budget);
    expect(budget).toBeLessThan(accountPlanMembers.paid.requestsPerMinute);
    expect(keys.slice(0, 3)).toEqual(['second', 'first', 'second']);
    expect(keys.filter((key) => key === 'first')).toHaveLength(budget);
    expect(keys.filter((key) => key === 'second')).toHaveLength(budget);
  });

  it('waits for the window to move on when every key has spent its budget', async () => {
    const pool = new KeyPool(['only']);
    await take(pool, budget);
    let settled = false;
    const waiting = pool.next().then((key) => {
      settled = true;
      return key;
    });
    await vi.advanceTimersByTimeAsync(windowMilliseconds - 1000);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await waiting).toBe('only');
  });
});
