import { describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from './clock.js';

describe('clocks', () => {
  it('fires manual timers in order as time advances', () => {
    const clock = new ManualClock(0);
    const fired: string[] = [];
    clock.schedule(() => fired.push('b'), 300);
    clock.schedule(() => fired.push('a'), 100);
    const cancel = clock.schedule(() => fired.push('never'), 200);
    cancel();
    clock.advance(250);
    expect(fired).toEqual(['a']);
    clock.advance(50);
    expect([fired, clock.now()]).toEqual([['a', 'b'], 300]);
  });

  it('runs a scaled clock faster than the wall clock', async () => {
    const clock = systemClock(1000);
    const before = clock.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(clock.now() - before).toBeGreaterThanOrEqual(15_000);
  });

  it('refuses a non-positive scale', () => {
    expect(() => systemClock(0)).toThrow(/positive/);
  });
});
