// `npm run mutation`'s test runner (ADR 0028): a StrykerJS plugin whose tests are the conformance check files.
// Stryker loads this file from the project, in a child process whose working directory is its sandbox; the harness
// and the reference are imported from the sandbox (session.ts), so the checks meet the instrumented reference.
//  - Dry run: the whole suite, one check file at a time, each named as Stryker's current test, so Stryker's own
//    instrumentation counts which file reached which mutant (per-test coverage).
//  - Mutant run: the active mutant switched on in this process (mutant switching), fresh references started, only
//    the check files Stryker names (those that reached the mutant) run, and the first failed check ends the run.
// Mutants reached at start-up ("static") need the mutant active while the reference loads: Stryker starts a fresh
// process for them (reloadEnvironment: false), and this runner imports the sandbox only after setting the mutant.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MutantCoverage } from '@stryker-mutator/api/core';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import {
  type DryRunResult,
  DryRunStatus,
  type MutantRunOptions,
  type MutantRunResult,
  MutantRunStatus,
  type TestResult,
  type TestRunner,
  type TestRunnerCapabilities,
  TestStatus,
} from '@stryker-mutator/api/test-runner';
import { type FileOutcome, startUp } from './file-outcomes.js';
import type { runCheckFiles } from './session.js';

/** What the runner uses of the sandbox's session.ts. */
export interface Session {
  runCheckFiles: typeof runCheckFiles;
}

/** The sandbox's session.ts: Stryker starts this runner with its sandbox as the working directory. */
async function sandboxSession(): Promise<Session> {
  return (await import(
    pathToFileURL(path.join(process.cwd(), 'conformance/mutation/session.ts')).href
  )) as Session;
}

interface StrykerNamespace {
  activeMutant?: string | undefined;
  hitCount?: number | undefined;
  hitLimit?: number | undefined;
  mutantCoverage?: MutantCoverage;
}

function namespace(): StrykerNamespace {
  const global = globalThis as { __stryker__?: StrykerNamespace };
  global.__stryker__ ??= {};
  return global.__stryker__;
}

function testResults(outcomes: readonly FileOutcome[]): TestResult[] {
  return outcomes.map((outcome) => {
    // The file Stryker's report shows each test in: the check file, or for the start-up the module that runs it.
    const fileName =
      outcome.file === startUp ? 'conformance/mutation/session.ts' : `conformance/checks/${outcome.file}`;
    const base = {
      id: outcome.file,
      name: outcome.file,
      fileName,
      timeSpentMs: Math.round(outcome.durationMs),
    };
    return outcome.failure === null
      ? { ...base, status: TestStatus.Success }
      : { ...base, status: TestStatus.Failed, failureMessage: outcome.failure };
  });
}

export class ConformanceTestRunner implements TestRunner {
  static inject = [] as const;
  #session: Session | null = null;

  constructor(private readonly loadSession: () => Promise<Session> = sandboxSession) {}

  capabilities(): TestRunnerCapabilities {
    return { reloadEnvironment: false };
  }

  async #load(): Promise<Session> {
    this.#session ??= await this.loadSession();
    return this.#session;
  }

  async dryRun(): Promise<DryRunResult> {
    try {
      const session = await this.#load();
      const outcomes = await session.runCheckFiles(null, { bail: false, attribute: true });
      const coverage = namespace().mutantCoverage ?? { static: {}, perTest: {} };
      return { status: DryRunStatus.Complete, tests: testResults(outcomes), mutantCoverage: coverage };
    } catch (error) {
      return { status: DryRunStatus.Error, errorMessage: (error as Error).stack ?? String(error) };
    }
  }

  async mutantRun(options: MutantRunOptions): Promise<MutantRunResult> {
    const ns = namespace();
    // A static mutant must be on before the sandbox's modules load; a runtime one after (it then only changes calls).
    if (options.mutantActivation === 'static') ns.activeMutant = options.activeMutant.id;
    const session = await this.#load();
    ns.activeMutant = options.activeMutant.id;
    ns.hitCount = options.hitLimit === undefined ? undefined : 0;
    ns.hitLimit = options.hitLimit;
    try {
      const outcomes = await session.runCheckFiles(options.testFilter ?? null, {
        bail: !options.disableBail,
        attribute: false,
      });
      if (ns.hitLimit !== undefined && (ns.hitCount ?? 0) > ns.hitLimit)
        return {
          status: MutantRunStatus.Timeout,
          reason: `hit limit reached (${ns.hitCount}/${ns.hitLimit})`,
        };
      const failed = outcomes.filter((outcome) => outcome.failure !== null);
      return failed.length === 0
        ? { status: MutantRunStatus.Survived, nrOfTests: outcomes.length }
        : {
            status: MutantRunStatus.Killed,
            killedBy: failed.map((outcome) => outcome.file),
            failureMessage: failed[0]?.failure ?? 'failed',
            nrOfTests: outcomes.length,
          };
    } catch (error) {
      // The references did not start (or stop) with the mutant on: a conformance run would have failed too.
      return {
        status: MutantRunStatus.Killed,
        killedBy: [startUp],
        failureMessage: (error as Error).stack ?? String(error),
        nrOfTests: 1,
      };
    } finally {
      ns.activeMutant = undefined;
      ns.hitCount = undefined;
      ns.hitLimit = undefined;
    }
  }
}

export const strykerPlugins = [
  declareClassPlugin(PluginKind.TestRunner, 'conformance', ConformanceTestRunner),
];
