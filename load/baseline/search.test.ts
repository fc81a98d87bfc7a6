import { describe, expect, it } from 'vitest';
import { searchLargest } from './search.js';

describe('searchLargest', () => {
  const cases: Array<
    [string, { capacity: number; start: number; maximum: number; best: number; tried: number[] }]
  > = [
    [
      'doubles, then bisects once (passes)',
      { capacity: 35, start: 5, maximum: 500, best: 30, tried: [5, 10, 20, 40, 30] },
    ],
    [
      'doubles, then bisects once (fails)',
      { capacity: 25, start: 5, maximum: 500, best: 20, tried: [5, 10, 20, 40, 30] },
    ],
    [
      'fails at the start: bisects between 0 and it',
      { capacity: 3, start: 5, maximum: 500, best: 2, tried: [5, 2] },
    ],
    ['stops at the maximum', { capacity: 1000, start: 5, maximum: 30, best: 20, tried: [5, 10, 20] }],
  ];
  it.each(cases)('%s', async (_name, { capacity, start, maximum, best, tried }) => {
    const result = await searchLargest(start, maximum, async (streams) => streams <= capacity);
    expect(result.best).toBe(best);
    expect(result.steps.map((step) => step.streams)).toEqual(tried);
  });
});
