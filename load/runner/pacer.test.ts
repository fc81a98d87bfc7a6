import { describe, expect, it } from 'vitest';
import { LoadProfile } from './load-profile.js';
import { Pacer } from './pacer.js';

const constant = (ratePerSecond: number) => (elapsedMs: number) => (ratePerSecond * elapsedMs) / 1000;

describe('Pacer', () => {
  it('owes exactly the schedule when the driver keeps up: 1 kHz for 1 s in 1 ms turns, none late', () => {
    const pacer = new Pacer(constant(1000), 1000, 10);
    let sent = 0;
    for (let elapsed = 0; elapsed <= 1000; elapsed += 1) sent += pacer.take(elapsed);
    expect(sent).toBe(1000);
    expect(pacer.report()).toEqual({ scheduled: 1000, sent: 1000, late: 0, maxLagMs: expect.any(Number) });
    expect(pacer.report().maxLagMs).toBeLessThan(1);
  });

  it('catches up after a stall instead of sending less, and counts what went out late', () => {
    const pacer = new Pacer(constant(1000), 1000, 10);
    let sent = 0;
    for (let elapsed = 0; elapsed <= 100; elapsed += 1) sent += pacer.take(elapsed);
    expect(sent).toBe(100);
    // A 200 ms stall: 200 messages are owed at once; those due more than 10 ms ago are late.
    expect(pacer.take(300)).toBe(200);
    const report = pacer.report();
    expect(report.sent).toBe(300);
    expect(report.late).toBe(190);
    expect(report.maxLagMs).toBeCloseTo(199, 0);
  });

  it('spreads a catch-up over turns when a batch is capped, and still owes the rest', () => {
    const pacer = new Pacer(constant(1000), 1000, 10);
    expect(pacer.take(500, 50)).toBe(50);
    expect(pacer.remaining()).toBe(950);
    expect(pacer.take(500, 1000)).toBe(450);
  });

  it('never sends more than the run owes, however late it is asked', () => {
    const pacer = new Pacer(constant(1000), 1000, 10);
    expect(pacer.take(5000)).toBe(1000);
    expect(pacer.take(6000)).toBe(0);
    expect(pacer.remaining()).toBe(0);
  });

  it('gives the due time of each message (the inverse of the schedule)', () => {
    const pacer = new Pacer(constant(100), 100, 10);
    expect(pacer.dueAt(1)).toBeCloseTo(10, 1);
    expect(pacer.dueAt(50)).toBeCloseTo(500, 1);
  });

  it('follows a ramp: half the messages of a constant rate over a linear ramp from 0', () => {
    const profile = new LoadProfile([{ seconds: 2, percent: 100 }], 0);
    const pacer = new Pacer((elapsed) => 1000 * profile.area(elapsed / 1000), 1000, 10);
    expect(pacer.take(1000)).toBe(250);
    expect(pacer.take(2000)).toBe(750);
  });
});

describe('LoadProfile', () => {
  it('ramps through stages, then holds at full level', () => {
    const profile = new LoadProfile(
      [
        { seconds: 2, percent: 50 },
        { seconds: 2, percent: 100 },
      ],
      6,
    );
    expect(profile.totalSeconds).toBe(10);
    expect(profile.level(1)).toBeCloseTo(0.25);
    expect(profile.level(3)).toBeCloseTo(0.75);
    expect(profile.level(7)).toBe(1);
    expect(profile.area(2)).toBeCloseTo(0.5);
    expect(profile.area(4)).toBeCloseTo(0.5 + 1.5);
    expect(profile.area(10)).toBeCloseTo(2 + 6);
    expect(profile.area(99)).toBeCloseTo(8);
  });
});
