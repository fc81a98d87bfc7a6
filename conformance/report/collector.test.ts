import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import { catalogue } from '../harness/catalogue.js';
import { CheckCollector } from './collector.js';
import { buildMatrix, totalsOf } from './results.js';

const root = path.resolve(import.meta.dirname, '../..');

interface FakeTest {
  name: string;
  requirements?: string[];
  state: 'passed' | 'failed' | 'skipped';
  message?: string;
}

/** Just what the collector reads of vitest's TestModule: one module with its tests. */
function moduleOf(tests: FakeTest[], errors: string[] = []): TestModule {
  const fake = {
    moduleId: path.join(root, 'conformance/checks/99-fake.check.ts'),
    errors: () => errors.map((message) => ({ message })),
    children: {
      allTests: () =>
        tests.map((test) => ({
          name: test.name,
          meta: () => (test.requirements === undefined ? {} : { requirements: test.requirements }),
          diagnostic: () => ({ duration: 5 }),
          result: () =>
            test.state === 'failed'
              ? { state: 'failed', errors: [{ message: test.message ?? 'boom' }] }
              : test.state === 'skipped'
                ? { state: 'skipped', note: test.message }
                : { state: 'passed' },
        })),
    },
  };
  return fake as unknown as TestModule;
}

function collect(tests: FakeTest[], errors: string[] = [], unhandled: unknown[] = []) {
  const collector = new CheckCollector(root);
  collector.onTestRunEnd([moduleOf(tests, errors)], unhandled);
  return collector;
}

describe('CheckCollector', () => {
  it('keeps each check with its requirement ids, state, detail and file', () => {
    const collector = collect([
      { name: 'ok', requirements: ['ERR-400'], state: 'passed' },
      { name: 'bad', requirements: ['ERR-404'], state: 'failed', message: 'expected status 404' },
      { name: 'later', requirements: ['ERR-500'], state: 'skipped', message: 'cannot provoke a 500' },
    ]);
    expect(collector.results).toEqual([
      {
        title: 'ok',
        file: 'conformance/checks/99-fake.check.ts',
        requirements: ['ERR-400'],
        state: 'passed',
        detail: null,
        durationMs: 5,
      },
      expect.objectContaining({ title: 'bad', state: 'failed', detail: 'expected status 404' }),
      expect.objectContaining({ title: 'later', state: 'skipped', detail: 'cannot provoke a 500' }),
    ]);
    expect(collector.suiteErrors).toEqual([]);
  });

  it('reports module errors and unhandled errors as suite errors', () => {
    const collector = collect([], ['cannot import'], ['unhandled rejection']);
    expect(collector.suiteErrors).toEqual([
      'conformance/checks/99-fake.check.ts: cannot import',
      'unhandled rejection',
    ]);
  });

  // A failure no requirement row shows would otherwise leave the run green.
  it('counts a failed check that names no known requirement as a suite error', () => {
    const collector = collect([
      {
        name: 'typo',
        requirements: ['ERR-4O4'],
        state: 'failed',
        message: 'unknown requirement ids: ERR-4O4',
      },
      { name: 'bare it()', state: 'failed', message: 'boom' },
      { name: 'fine', requirements: ['ERR-404', 'ERR-4O4'], state: 'failed', message: 'expected 404' },
    ]);
    expect(collector.suiteErrors).toHaveLength(2);
    expect(collector.suiteErrors[0]).toContain('typo');
    expect(collector.suiteErrors[0]).toContain('unknown requirement ids: ERR-4O4');
    expect(collector.suiteErrors[1]).toContain('bare it()');
    const totals = totalsOf(buildMatrix(catalogue(), collector.results), collector.suiteErrors.length);
    expect(totals.failed).toBe(3);
  });
});
