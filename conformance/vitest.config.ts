import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Check files run one after another in name order, so the rate-limit checks (named last) exhaust keys last. */
class ByName extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => (a.moduleId < b.moduleId ? -1 : 1));
  }
}

// The conformance checks: run by `npm run conformance` (conformance/cli.ts), never by the unit-test config.
export default defineConfig({
  test: {
    include: ['conformance/checks/**/*.check.ts'],
    // Child processes: they start after the CLI set NODE_EXTRA_CA_CERTS (--ca-file), so every client trusts it.
    pool: 'forks',
    // One worker per lane imports the suite's modules once for all its files (a fresh fork per file re-imported the
    // generated validators and clients every time: most of a file's start). The files share no state that matters:
    // caches of the spec and the target, the key pool (better shared: it sees the lane's whole use of each key).
    isolate: false,
    fileParallelism: false,
    sequence: { sequencer: ByName },
    // A check that passes ends at its event; the bound is for a loaded machine, where an MQTT connect and publish
    // took over 30 s at load 15 beside other suites (data-plane variants, wave 5).
    testTimeout: 60_000,
    // Every check of a concurrent describe starts at once: the retry file's long waits (the secret overlap, the
    // receiver timeout, the schedule) overlap instead of queueing behind the first five.
    maxConcurrency: 16,
    hookTimeout: 60_000,
  },
});
