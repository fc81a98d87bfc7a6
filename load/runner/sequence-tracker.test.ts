import { describe, expect, it } from 'vitest';
import { SequenceTracker } from './sequence-tracker.js';

/** A synthetic stream of 1..sent with known faults applied, in delivery order. */
function deliver(sequence: readonly number[], sent: number) {
  const tracker = new SequenceTracker();
  for (const number of sequence) tracker.record(number);
  return { ...tracker.counts(), lost: tracker.lost(sent) };
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_unused, index) => from + index);

describe('SequenceTracker', () => {
  const cases: Array<[string, { given: number[]; sent: number; want: Record<string, number> }]> = [
    [
      'clean',
      { given: range(1, 100), sent: 100, want: { lost: 0, reordered: 0, duplicated: 0, unique: 100 } },
    ],
    [
      'gap (3 lost in the middle)',
      {
        given: [...range(1, 10), ...range(14, 20)],
        sent: 20,
        want: { lost: 3, reordered: 0, duplicated: 0 },
      },
    ],
    ['tail lost', { given: range(1, 95), sent: 100, want: { lost: 5, reordered: 0, duplicated: 0 } }],
    ['head lost', { given: range(4, 10), sent: 10, want: { lost: 3, reordered: 0 } }],
    [
      'swap (one reordered, none lost)',
      { given: [1, 2, 4, 3, 5], sent: 5, want: { lost: 0, reordered: 1, duplicated: 0 } },
    ],
    [
      'late arrival fills the middle of a gap',
      { given: [1, 6, 3, 2, 5, 4], sent: 6, want: { lost: 0, reordered: 4, gaps: 0 } },
    ],
    [
      'duplicate of the latest',
      { given: [1, 2, 2, 3], sent: 3, want: { lost: 0, duplicated: 1, unique: 3, received: 4 } },
    ],
    [
      'duplicate of an old one',
      { given: [1, 2, 3, 1], sent: 3, want: { lost: 0, duplicated: 1, reordered: 0 } },
    ],
    [
      'duplicate of a reordered one',
      { given: [1, 3, 2, 2], sent: 3, want: { lost: 0, reordered: 1, duplicated: 1 } },
    ],
    [
      'every fault at once',
      {
        given: [1, 2, 5, 3, 3, 7, 8, 8, 10],
        sent: 12,
        want: { lost: 5, reordered: 1, duplicated: 2, highest: 10 },
      },
    ],
    ['nothing received', { given: [], sent: 50, want: { lost: 50, received: 0 } }],
  ];
  it.each(cases)('%s', (_name, { given, sent, want }) => {
    expect(deliver(given, sent)).toMatchObject(want);
  });

  it('keeps a long outage as one range: 1,000,000 missing numbers, then the last arrives', () => {
    const tracker = new SequenceTracker();
    tracker.record(1);
    tracker.record(1_000_002);
    tracker.record(500_000);
    expect(tracker.counts()).toMatchObject({ gaps: 999_999, reordered: 1 });
    expect(tracker.lost(1_000_002)).toBe(999_999);
  });
});
