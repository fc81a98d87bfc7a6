import { describe, expect, it } from 'vitest';
import { EventLoopLag, type LoadReading } from './event-loop-lag.js';
import { defaultOverloadSettings, OverloadGuard, type OverloadSettings } from './overload-guard.js';
import { eventually } from './testing/ingest-fixture.js';

const settings: OverloadSettings = {
  // The service's thresholds, read faster and left sooner so the tests are short.
  ...defaultOverloadSettings,
  sampleIntervalMilliseconds: 20,
  exitReadings: 3,
};
const high: LoadReading = { lagMilliseconds: 400, utilization: 1, ingestShare: 0.8 };
const low: LoadReading = { lagMilliseconds: 5, utilization: 0.3, ingestShare: 0.2 };
const lateButIdle: LoadReading = { lagMilliseconds: 400, utilization: 0.2, ingestShare: 0.1 };
const busyElsewhere: LoadReading = { lagMilliseconds: 400, utilization: 1, ingestShare: 0.1 };
const middle: LoadReading = { lagMilliseconds: 100, utilization: 1, ingestShare: 0.8 };
const quiet = { read: () => low, recordIngestTime() {}, close() {} };

describe('OverloadGuard: hysteresis over readings', () => {
  const cases: Array<[string, { given: LoadReading[]; want: boolean[] }]> = [
    [
      'one pause (one high reading) never sheds',
      { given: [high, low, high, low], want: [false, false, false, false] },
    ],
    ['two high readings in a row shed', { given: [low, high, high], want: [false, false, true] }],
    [
      'late but idle (a starved machine, not a busy service)',
      { given: [lateButIdle, lateButIdle, lateButIdle], want: [false, false, false] },
    ],
    [
      'busy with something else than ingest (REST, clients in the same process)',
      { given: [busyElsewhere, busyElsewhere, busyElsewhere], want: [false, false, false] },
    ],
    [
      'between the thresholds while overloaded: stays',
      { given: [high, high, middle, middle, middle, middle], want: [false, true, true, true, true, true] },
    ],
    [
      'three low readings in a row recover',
      { given: [high, high, low, low, low], want: [false, true, true, true, false] },
    ],
    [
      'a high reading restarts the count towards recovery',
      { given: [high, high, low, low, high, low, low], want: [false, true, true, true, true, true, true] },
    ],
  ];
  for (const [name, { given, want }] of cases)
    it(name, () => {
      const guard = new OverloadGuard(quiet, settings);
      const states = given.map((reading) => {
        guard.observe(reading);
        return guard.overloaded;
      });
      expect(states).toEqual(want);
    });

  it('counts episodes and reports each change once', () => {
    const changes: boolean[] = [];
    const guard = new OverloadGuard(quiet, settings, (overloaded) => changes.push(overloaded));
    for (const reading of [high, high, high, low, low, low, low, high, high]) guard.observe(reading);
    expect(changes).toEqual([true, false, true]);
    expect(guard.counts.episodes).toBe(2);
  });
});

/** Keeps the event loop busy for `milliseconds` in one turn, as an overloaded service's turns are. */
function busyTurn(milliseconds: number): void {
  const until = performance.now() + milliseconds;
  while (performance.now() < until);
}

describe('EventLoopLag (node:perf_hooks) and the guard on the real event loop', () => {
  it('a blocked turn reads as lag at least that long, with the loop busy', async () => {
    const signal = new EventLoopLag();
    await new Promise((resolve) => setTimeout(resolve, 50));
    signal.read();
    busyTurn(300);
    await new Promise((resolve) => setImmediate(resolve));
    const reading = signal.read();
    signal.close();
    // A mean over the turns since the last reading: the blocked one and at most a couple of short ones. Machine load
    // only makes turns longer and the loop no less busy.
    expect(reading.lagMilliseconds).toBeGreaterThanOrEqual(90);
    expect(reading.utilization).toBeGreaterThan(0.5);
    expect(reading.ingestShare).toBe(0);
  });

  it('turns kept busy by ingest make the default guard overloaded; an idle loop recovers it', async () => {
    const guard = new OverloadGuard(new EventLoopLag(), defaultOverloadSettings);
    guard.start();
    try {
      const until = Date.now() + 10_000;
      while (!guard.overloaded && Date.now() < until) {
        const startedAt = performance.now();
        busyTurn(250);
        guard.recordIngestTime(performance.now() - startedAt);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(guard.overloaded).toBe(true);
      await eventually(() => !guard.overloaded, 15_000);
    } finally {
      guard.stop();
    }
  }, 30_000);
});
