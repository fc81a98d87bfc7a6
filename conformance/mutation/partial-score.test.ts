import { expect, it } from 'vitest';
import { scoreOf } from './partial-score.js';

it('scores detected over valid mutants, counting a mutant no check reaches against the total only', () => {
  const statuses = ['Killed', 'Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored', 'RuntimeError'];
  const score = scoreOf(statuses.map((status) => ({ fileName: 'reference/auth/pkce.ts', status })));
  expect(score).toMatchObject({ detected: 3, survived: 1, noCoverage: 1, ignored: 1 });
  expect(score.total).toBeCloseTo(60);
  expect(score.covered).toBeCloseTo(75);
});
