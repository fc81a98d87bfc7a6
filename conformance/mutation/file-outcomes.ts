import path from 'node:path';
import type { CheckResult } from '../report/results.js';

/**
 * The test that stands for the references' start (seeding accounts and keys, the stores): every check depends on it,
 * so a mutant it reached runs every check file.
 */
export const startUp = 'start-up';

/** A check file's outcome: failed with the first failed check's title and detail, or passed. */
export interface FileOutcome {
  file: string;
  failure: string | null;
  durationMs: number;
}

/** Stryker's tests are check files: a file fails with its first failed check, or with an error of its own. */
export function outcomesByFile(
  results: readonly CheckResult[],
  suiteErrors: readonly string[],
): FileOutcome[] {
  const byFile = new Map<string, FileOutcome>();
  for (const result of results) {
    const file = path.basename(result.file);
    const outcome = byFile.get(file) ?? { file, failure: null, durationMs: 0 };
    outcome.durationMs += result.durationMs;
    if (result.state === 'failed' && outcome.failure === null)
      outcome.failure = `${result.title}: ${result.detail ?? 'failed'}`;
    byFile.set(file, outcome);
  }
  // A file that failed to load or a check outside the catalogue: its file name leads the message.
  for (const error of suiteErrors) {
    const file = path.basename(error.slice(0, error.indexOf(':')));
    const outcome = byFile.get(file) ?? { file: file || 'suite', failure: null, durationMs: 0 };
    outcome.failure ??= error;
    byFile.set(outcome.file, outcome);
  }
  return [...byFile.values()];
}
