import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiPolicies } from '../../generated/types/facts.js';
import { AddressBudget, addressBudget } from './address-budget.js';

let directory = '';
let ledger = '';

beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'address-budget-'));
  ledger = path.join(directory, 'ledger.jsonl');
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Takes `count` places (each answered and counted at once); resolves with when each was granted. */
async function spend(budget: AddressBudget, scope: string, count: number): Promise<number[]> {
  const granted: number[] = [];
  for (let index = 0; index < count; index++) {
    const reservation = await budget.reserve(scope);
    granted.push(Date.now());
    await reservation.settle(true, `request ${index}`);
  }
  return granted;
}

/** Whether a reservation in `scope` is still waiting after `milliseconds` (then given up). */
async function stillWaitingAfter(
  budget: AddressBudget,
  scope: string,
  milliseconds: number,
): Promise<boolean> {
  const controller = new AbortController();
  const waiting = budget.reserve(scope, controller.signal).then(
    () => false,
    (error: unknown) => {
      if (error instanceof Error && error.name === 'AbortError') return true;
      throw error;
    },
  );
  const timer = setTimeout(() => controller.abort(), milliseconds);
  const outcome = await waiting;
  clearTimeout(timer);
  return outcome;
}

describe('AddressBudget', () => {
  it('stays under the spec’s perAddress limit', () => {
    expect(addressBudget).toBeGreaterThan(0);
    expect(addressBudget).toBeLessThan(apiPolicies.rateLimit.perAddress.requestsPerWindow);
  });

  it('admits two lanes (two budgets on one ledger) no more than the budget per window together', async () => {
    const options = { budget: 4, windowMilliseconds: 400 };
    const lanes = [new AddressBudget(ledger, options), new AddressBudget(ledger, options)];
    const [first, second] = await Promise.all(lanes.map((lane) => spend(lane, 'target', 5)));
    const granted = [...(first ?? []), ...(second ?? [])].sort((a, b) => a - b);
    // Every window's worth of grants spans at least a window: the fifth waited for the first's to pass, and so on.
    for (let index = 4; index < granted.length; index++)
      expect((granted[index] ?? 0) - (granted[index - 4] ?? 0)).toBeGreaterThanOrEqual(400);
  });

  it('frees the place of a request the target did not count, and keeps scopes apart', async () => {
    const budget = new AddressBudget(ledger, { budget: 2, windowMilliseconds: 60_000 });
    for (let index = 0; index < 5; index++)
      await (await budget.reserve('a')).settle(false, 'valid credential');
    await spend(budget, 'a', 2);
    await spend(budget, 'b', 2);
    expect(await stillWaitingAfter(budget, 'a', 500)).toBe(true);
  });

  it('counts a request sent without a reservation that the target counted', async () => {
    const budget = new AddressBudget(ledger, { budget: 1, windowMilliseconds: 60_000 });
    await budget.counted('a', 'GET /account 401');
    expect(await stillWaitingAfter(budget, 'a', 500)).toBe(true);
  });

  it('records without waiting when not enforced', async () => {
    const budget = new AddressBudget(ledger, { budget: 1, windowMilliseconds: 60_000, enforce: false });
    await spend(budget, 'a', 3);
    const lines = (await readFile(ledger, 'utf8')).trim().split('\n');
    expect(lines.filter((line) => line.includes('"done"'))).toHaveLength(3);
  });
});
