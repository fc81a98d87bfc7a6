import { describe, expect, it } from 'vitest';
import { compareThroughput, pairedRatio } from '../bench/harness.js';

describe('compareThroughput', () => {
  it('runs the candidates in reverse order every other round, and keeps each result with its candidate', () => {
    const calls: string[] = [];
    const candidate = (label: string) => ({ label, run: () => calls.push(label) });
    const results = compareThroughput([candidate('a'), candidate('b'), candidate('c')], {
      rounds: 3,
      operationsPerRound: 1,
      warmupRounds: 1,
    });
    expect(calls).toEqual(['a', 'b', 'c', 'c', 'b', 'a', 'a', 'b', 'c', 'c', 'b', 'a']);
    expect(results.map((result) => [result.label, result.rounds.length])).toEqual([
      ['a', 3],
      ['b', 3],
      ['c', 3],
    ]);
  });
});

describe('pairedRatio', () => {
  it('is the median of the rounds’ own ratios, with their range', () => {
    const ratio = pairedRatio(
      'check',
      { label: 'candidate', medianOpsPerSecond: 0, rounds: [8, 9, 30] },
      { label: 'baseline', medianOpsPerSecond: 0, rounds: [10, 10, 10] },
      0.9,
    );
    expect(ratio).toMatchObject({ ratio: 0.9, low: 0.8, high: 3, target: 0.9 });
  });
});
