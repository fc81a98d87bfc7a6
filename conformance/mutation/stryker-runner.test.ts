import { type MutantRunOptions, MutantRunStatus, TestStatus } from '@stryker-mutator/api/test-runner';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileOutcome } from './file-outcomes.js';
import { ConformanceTestRunner, type Session } from './stryker-runner.js';

type Namespace = {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: unknown;
  hitCount?: number;
};
const ns = () => (globalThis as { __stryker__?: Namespace }).__stryker__ ?? {};

/** A session that records what the runner asked and which mutant was on while it ran. */
function session(
  outcomes: FileOutcome[] | Error,
  seen: { loadedWith?: string | undefined; ranWith?: unknown[] },
) {
  return async (): Promise<Session> => {
    seen.loadedWith = ns().activeMutant;
    return {
      async runCheckFiles(files, options) {
        seen.ranWith = [files, options, ns().activeMutant];
        if (outcomes instanceof Error) throw outcomes;
        return outcomes;
      },
    };
  };
}

function options(overrides: Partial<MutantRunOptions> = {}): MutantRunOptions {
  return {
    activeMutant: { id: '42' } as MutantRunOptions['activeMutant'],
    testFilter: ['61-oauth-token.check.ts'],
    mutantActivation: 'runtime',
    reloadEnvironment: false,
    sandboxFileName: 'reference/auth/pkce.ts',
    timeout: 1000,
    disableBail: false,
    ...overrides,
  };
}

const passed = (file: string): FileOutcome => ({ file, failure: null, durationMs: 5 });

afterEach(() => {
  delete (globalThis as { __stryker__?: Namespace }).__stryker__;
});

describe('ConformanceTestRunner', () => {
  it('turns a runtime mutant on after the sandbox loads, runs only the files named, with bail, then off', async () => {
    const seen: { loadedWith?: string | undefined; ranWith?: unknown[] } = {};
    const runner = new ConformanceTestRunner(session([passed('61-oauth-token.check.ts')], seen));
    const result = await runner.mutantRun(options());
    expect(seen.loadedWith).toBeUndefined();
    expect(seen.ranWith).toEqual([['61-oauth-token.check.ts'], { bail: true, attribute: false }, '42']);
    expect(result).toEqual({ status: MutantRunStatus.Survived, nrOfTests: 1 });
    expect(ns().activeMutant).toBeUndefined();
  });

  it('turns a static mutant on before the sandbox loads', async () => {
    const seen: { loadedWith?: string | undefined } = {};
    const runner = new ConformanceTestRunner(session([passed('start-up')], seen));
    const everyFile = options({ mutantActivation: 'static' });
    delete everyFile.testFilter;
    await runner.mutantRun(everyFile);
    expect(seen.loadedWith).toBe('42');
  });

  it('is killed by every file with a failed check, with the first failure as the message', async () => {
    const runner = new ConformanceTestRunner(
      session(
        [
          passed('start-up'),
          { file: '60-oauth-authorize.check.ts', failure: 'PKCE: refused', durationMs: 3 },
          { file: '61-oauth-token.check.ts', failure: 'token: 400', durationMs: 3 },
        ],
        {},
      ),
    );
    const result = await runner.mutantRun(options({ disableBail: true }));
    expect(result).toEqual({
      status: MutantRunStatus.Killed,
      killedBy: ['60-oauth-authorize.check.ts', '61-oauth-token.check.ts'],
      failureMessage: 'PKCE: refused',
      nrOfTests: 3,
    });
  });

  it('counts a start that throws as killed by the start-up, not as an error of the runner', async () => {
    const runner = new ConformanceTestRunner(session(new Error('null value in column "hash"'), {}));
    const result = await runner.mutantRun(options());
    expect(result).toMatchObject({ status: MutantRunStatus.Killed, killedBy: ['start-up'] });
    expect(ns().activeMutant).toBeUndefined();
  });

  it('reports a timeout when the mutant ran past Stryker hit limit (an endless loop)', async () => {
    const runner = new ConformanceTestRunner(async () => ({
      async runCheckFiles() {
        (ns() as { hitCount: number }).hitCount = 11;
        return [passed('start-up')];
      },
    }));
    const result = await runner.mutantRun(options({ hitLimit: 10 }));
    expect(result.status).toBe(MutantRunStatus.Timeout);
  });

  it('dry-runs every file one at a time and hands Stryker the coverage its instrumentation counted', async () => {
    const seen: { ranWith?: unknown[] } = {};
    const coverage = { static: { '1': 1 }, perTest: { '61-oauth-token.check.ts': { '42': 3 } } };
    const runner = new ConformanceTestRunner(async () => {
      (globalThis as { __stryker__?: Namespace }).__stryker__ = { mutantCoverage: coverage };
      return session(
        [passed('start-up'), { file: '61-oauth-token.check.ts', failure: 'x', durationMs: 1 }],
        seen,
      )();
    });
    const result = await runner.dryRun();
    expect(seen.ranWith?.slice(0, 2)).toEqual([null, { bail: false, attribute: true }]);
    expect(result).toMatchObject({
      mutantCoverage: coverage,
      tests: [
        { id: 'start-up', status: TestStatus.Success, fileName: 'conformance/mutation/session.ts' },
        { id: '61-oauth-token.check.ts', status: TestStatus.Failed, failureMessage: 'x' },
      ],
    });
  });
});
