import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { catalogue } from '../harness/catalogue.js';
import type { TargetDescription } from '../harness/target.js';
import {
  buildMatrix,
  type CheckResult,
  type RequirementRow,
  type RequirementStatus,
} from '../report/results.js';
import { cleanEnvironment, runTsx } from './run-tsx.js';

export interface IsolatedRun {
  rows: RequirementRow[];
  results: CheckResult[];
  suiteErrors: string[];
  /** Requirement id → status, for the requirements some check of the run named. */
  statuses: Map<string, RequirementStatus>;
  durationMs: number;
}

/** A run's matrix from the checks it ran; only requirements a check named get a status. */
export function isolatedRunOf(
  results: CheckResult[],
  suiteErrors: string[],
  durationMs: number,
): IsolatedRun {
  const rows = buildMatrix(catalogue(), results);
  const named = new Set(results.flatMap((result) => result.requirements));
  const statuses = new Map(
    rows.filter((row) => named.has(row.requirement.id)).map((row) => [row.requirement.id, row.status]),
  );
  return { rows, results, suiteErrors, statuses, durationMs };
}

/**
 * Runs the check files matching `filters` (all when empty) against `target` in a child process, bounded in time,
 * and returns the requirement matrix. A child, because vitest cannot start vitest inside one of its workers.
 */
export async function runIsolated(
  root: string,
  target: TargetDescription,
  filters: readonly string[] = [],
  timeoutMilliseconds = 240_000,
  /** More environment for the run (CONFORMANCE_ADDRESS_*: a ledger shared with other runs of one service). */
  environment: NodeJS.ProcessEnv = {},
): Promise<IsolatedRun> {
  const scratchRoot = path.join(root, '.tmp');
  await mkdir(scratchRoot, { recursive: true });
  const scratch = await mkdtemp(path.join(scratchRoot, 'conformance-run-'));
  const started = performance.now();
  try {
    const targetFile = path.join(scratch, 'target.json');
    const resultsFile = path.join(scratch, 'results.json');
    await writeFile(targetFile, JSON.stringify(target), { mode: 0o600 });
    const finished = await runTsx(root, ['conformance/testing/run-target.ts', scratch, ...filters], {
      environment: cleanEnvironment(environment),
      timeoutMilliseconds,
    });
    // vitest sets exit code 1 when a check failed: only a missing results file means the run itself broke.
    const text = await readFile(resultsFile, 'utf8').catch(() => {
      throw new Error(
        `the check run exited with ${finished.exitCode} and wrote no results:\n${finished.stdout}${finished.stderr}`,
      );
    });
    const { results, suiteErrors } = JSON.parse(text) as { results: CheckResult[]; suiteErrors: string[] };
    return isolatedRunOf(results, suiteErrors, performance.now() - started);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The ids of the requirements with a status in a run, sorted. */
export function idsWith(run: IsolatedRun, status: RequirementStatus): string[] {
  return [...run.statuses]
    .filter(([, each]) => each === status)
    .map(([id]) => id)
    .sort();
}
