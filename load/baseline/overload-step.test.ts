import { describe, expect, it } from 'vitest';
import { judgeOverload, type OverloadMeasurement } from './overload-step.js';

const shedding: OverloadMeasurement = {
  streams: 105,
  sent: 1_575_000,
  received: 314_145,
  lost: 1_260_855,
  sentLate: 0,
  shed: { shedMessages: 1_127_669, refusedConnections: 0, episodes: 4 },
  peakRssMb: 1032,
  recoveryLost: 0,
  error: null,
};
const bound = 2048;

describe('judgeOverload', () => {
  const cases: Array<[string, Partial<OverloadMeasurement>, RegExp | null]> = [
    ['shed in the open, under the bound, recovered', {}, null],
    [
      'carried everything: not an overload, nothing to shed',
      { lost: 0, shed: { shedMessages: 0, refusedConnections: 0, episodes: 0 } },
      null,
    ],
    [
      'refused connections count as shedding',
      { shed: { shedMessages: 0, refusedConnections: 40, episodes: 1 } },
      null,
    ],
    [
      'lost with nothing shed',
      { shed: { shedMessages: 0, refusedConnections: 0, episodes: 0 } },
      /lost in silence/,
    ],
    ['the target cannot say what it shed', { shed: null }, /lost in silence/],
    ['memory above the bound', { peakRssMb: bound + 1 }, /above the bound of 2048 MiB/],
    ['no memory reading', { peakRssMb: null }, /no memory/],
    ['still losing after the overload', { recoveryLost: 12 }, /lost 12 samples: not recovered/],
    ['did not come back', { recoveryLost: null }, /did not come back/],
    [
      'failed during the overload',
      { error: 'a driver could not connect', recoveryLost: null },
      /failed under overload: a driver/,
    ],
  ];
  it.each(cases)('%s', (_name, change, failure) => {
    const verdict = judgeOverload({ ...shedding, ...change }, bound);
    expect(verdict.passed).toBe(failure === null);
    if (failure !== null) expect(verdict.reasons.join('; ')).toMatch(failure);
  });
});
