import { describe, expect, it } from 'vitest';
import { channelFacts } from '../../generated/types/facts.js';
import { SendBudget } from './send-budget.js';

const { burstSeconds, stallAllowanceSeconds } = channelFacts.deviceTelemetry.ingestRules.rateWindow;

describe('the catch-up budget of a driver (a compliant device)', () => {
  it("holds the device's share of the rate window: burst minus the service's stall allowance", () => {
    const budget = new SendBudget(1000, 0);
    expect(budget.capacity).toBe(Math.floor(1000 * (burstSeconds - stallAllowanceSeconds)));
    expect(budget.available(0)).toBe(budget.capacity);
  });

  it('after a long stall, refills only to its capacity, then at exactly the rate', () => {
    const budget = new SendBudget(1000, 0);
    budget.spend(budget.available(0));
    expect(budget.available(5000)).toBe(budget.capacity);
    budget.spend(budget.capacity);
    expect(budget.available(5010)).toBe(10);
  });
});
