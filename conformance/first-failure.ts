import type { Reporter, TestCase, Vitest } from 'vitest/node';

/**
 * `--bail`: one reporter shared by every lane, so that the first failed check in any lane cancels the runs of all of
 * them. A mutant that a check kills then costs the time to that check, not the whole suite (ADR 0028).
 */
export class FirstFailure implements Reporter {
  readonly #lanes: Vitest[] = [];
  #failed = false;

  get failed(): boolean {
    return this.#failed;
  }

  onInit(vitest: Vitest): void {
    this.#lanes.push(vitest);
    // A lane that starts after the failure does not run at all.
    if (this.#failed) void vitest.cancelCurrentRun('test-failure');
  }

  onTestCaseResult(test: TestCase): void {
    if (this.#failed || test.result().state !== 'failed') return;
    this.#failed = true;
    for (const lane of this.#lanes) void lane.cancelCurrentRun('test-failure');
  }
}
