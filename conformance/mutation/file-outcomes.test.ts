import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../report/results.js';
import { outcomesByFile } from './file-outcomes.js';

const check = (file: string, state: CheckResult['state'], title: string, detail: string | null = null) =>
  ({
    file: `conformance/checks/${file}`,
    state,
    title,
    detail,
    requirements: [],
    durationMs: 10,
  }) as CheckResult;

describe('outcomesByFile', () => {
  it('fails a file with its first failed check and sums its checks time', () => {
    const outcomes = outcomesByFile(
      [
        check('10-create-stream.check.ts', 'passed', 'a'),
        check('10-create-stream.check.ts', 'failed', 'b', 'expected 201'),
        check('10-create-stream.check.ts', 'failed', 'c', 'expected 400'),
        check('20-rest-pagination.check.ts', 'skipped', 'd'),
      ],
      [],
    );
    expect(outcomes).toEqual([
      { file: '10-create-stream.check.ts', failure: 'b: expected 201', durationMs: 30 },
      { file: '20-rest-pagination.check.ts', failure: null, durationMs: 10 },
    ]);
  });

  it('fails the file a suite error names, even one whose checks passed or never ran', () => {
    const outcomes = outcomesByFile(
      [check('20-rest-pagination.check.ts', 'passed', 'a')],
      [
        'conformance/checks/20-rest-pagination.check.ts: afterAll hook failed',
        'conformance/checks/30-rest-resources.check.ts: cannot import',
      ],
    );
    expect(outcomes.map((outcome) => [outcome.file, outcome.failure])).toEqual([
      ['20-rest-pagination.check.ts', 'conformance/checks/20-rest-pagination.check.ts: afterAll hook failed'],
      ['30-rest-resources.check.ts', 'conformance/checks/30-rest-resources.check.ts: cannot import'],
    ]);
  });
});
