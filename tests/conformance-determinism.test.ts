// Runs `npm run conformance` (the embedded default) N times and compares every verdict of every check (the data-plane
// ones included: MQTT, the live feed, the top rate, deliveries, the retry schedule): a harness whose verdicts change
// between runs of the same service cannot be trusted to fail. Each run must also end as the done-when says:
// exit 0, 0 failed, 0 not covered. Slow (a minute or more per run), so it runs only when asked; .ci/run asks for 3:
// CONFORMANCE_DETERMINISM_RUNS=3 npx vitest run tests/conformance-determinism.test.ts
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RequirementRow, Totals } from '../conformance/report/results.js';
import { cleanEnvironment, runTsx } from '../conformance/testing/run-tsx.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.env.CONFORMANCE_DETERMINISM_RUNS ?? '0');
const profile = process.env.CONFORMANCE_DETERMINISM_PROFILE ?? 'full';

interface Verdicts {
  exitCode: number | null;
  totals: Totals;
  /** Requirement id → status, and check (file and title) → state. */
  requirements: Map<string, string>;
  checks: Map<string, string>;
  seconds: number;
}

async function runOnce(): Promise<Verdicts> {
  await mkdir(path.join(root, '.tmp'), { recursive: true });
  const scratch = await mkdtemp(path.join(root, '.tmp', 'conformance-determinism-'));
  try {
    const started = performance.now();
    const finished = await runTsx(root, ['conformance/cli.ts', '--profile', profile], {
      environment: cleanEnvironment({ TELEMETRY_REPORT_DIR: scratch }),
      // A run takes about a minute on a quiet machine; the bound leaves room for a shared one (four minutes at load 18).
      timeoutMilliseconds: 600_000,
    });
    const report = JSON.parse(await readFile(path.join(scratch, 'report.json'), 'utf8')) as {
      totals: Totals;
      requirements: RequirementRow[];
    };
    const checks = new Map<string, string>();
    const failures = new Map<string, string>();
    for (const row of report.requirements)
      for (const check of row.checks) {
        checks.set(`${check.file} ${check.title}`, check.state);
        if (check.state === 'failed')
          failures.set(`${check.file} ${check.title}`, (check.detail ?? '').slice(0, 1500));
      }
    // Why a check failed is gone with the scratch folder otherwise: a verdict that flips needs its evidence.
    for (const [key, detail] of failures) console.log(`failed: ${key}\n  ${detail}`);
    return {
      exitCode: finished.exitCode,
      totals: report.totals,
      requirements: new Map(report.requirements.map((row) => [row.requirement.id, row.status])),
      checks,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function differences(first: Map<string, string>, other: Map<string, string>): string[] {
  const keys = new Set([...first.keys(), ...other.keys()]);
  return [...keys]
    .filter((key) => first.get(key) !== other.get(key))
    .map((key) => `${key}: ${first.get(key) ?? '(absent)'} then ${other.get(key) ?? '(absent)'}`);
}

describe.skipIf(!(runs >= 2))(`npm run conformance, ${runs} times`, () => {
  it(
    'gives the same verdict for every requirement and every check each time',
    async () => {
      const results: Verdicts[] = [];
      for (let index = 0; index < runs; index++) {
        const verdicts = await runOnce();
        results.push(verdicts);
        const { passed, failed, skipped, notCovered } = verdicts.totals;
        console.log(
          `run ${index + 1}: exit ${verdicts.exitCode}, ${passed} passed, ${failed} failed, ${skipped} skipped, ${notCovered} not covered, ${verdicts.seconds.toFixed(1)} s`,
        );
      }
      const [first, ...others] = results;
      if (first === undefined) throw new Error('no run');
      const changed = others.flatMap((other, index) =>
        [
          ...differences(first.requirements, other.requirements),
          ...differences(first.checks, other.checks),
        ].map((line) => `run ${index + 2}: ${line}`),
      );
      expect(changed).toEqual([]);
      expect(results.map((verdicts) => verdicts.exitCode)).toEqual(results.map(() => first.exitCode));
      if (profile === 'full')
        for (const verdicts of results) {
          const failedChecks = [...verdicts.checks]
            .filter(([, state]) => state === 'failed')
            .map(([key]) => key);
          expect(failedChecks).toEqual([]);
          expect(verdicts.totals.notCovered).toBe(0);
          expect(verdicts.exitCode).toBe(0);
        }
    },
    runs * 600_000,
  );
});
