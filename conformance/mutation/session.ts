// The sandbox side of the mutation job's test runner (stryker-runner.ts loads it from Stryker's sandbox, so that it
// and the reference it starts are the instrumented copies). One call is one conformance run against fresh embedded
// references: the check files asked for, their outcome per file.
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pgliteTemplateVariable } from '../../reference/storage/pglite-template.js';
import { ensurePgliteTemplate } from '../../reference/storage/testing/pglite-template-cache.js';
import { resolveTarget } from '../harness/resolve-target.js';
import { runChecks } from '../run-checks.js';
import { CheckFileAttribution, setCurrentTest } from './check-coverage.js';
import { type FileOutcome, outcomesByFile, startUp } from './file-outcomes.js';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Runs the check files named in `files` (every one when null, or when `files` names the start-up) against fresh
 * embedded references, as `npm run conformance` does. `attribute`: the start-up and then one check file at a time,
 * each named as Stryker's current test (the dry run's per-file coverage); `bail`: stop at the first failed check.
 */
export async function runCheckFiles(
  files: readonly string[] | null,
  options: { bail: boolean; attribute: boolean },
): Promise<FileOutcome[]> {
  // Every run starts three references; from the cached initdb template each is ready in about a second.
  process.env[pgliteTemplateVariable] ??= await ensurePgliteTemplate();
  if (options.attribute) setCurrentTest(startUp);
  const started = performance.now();
  const resolved = await resolveTarget({}, root, null);
  const startUpOutcome: FileOutcome = {
    file: startUp,
    failure: null,
    durationMs: performance.now() - started,
  };
  const filters = files === null || files.includes(startUp) ? [] : [...files];
  const scratch = await mkdtemp(path.join(root, '.tmp-conformance-run-'));
  try {
    const collector = await runChecks(resolved.target, root, scratch, filters, resolved.dataPlane ?? null, {
      bail: options.bail,
      reporters: options.attribute ? [new CheckFileAttribution()] : [],
      oneLaneAtATime: options.attribute,
    });
    return [startUpOutcome, ...outcomesByFile(collector.results, collector.suiteErrors)];
  } finally {
    await resolved.release();
    await rm(scratch, { recursive: true, force: true });
  }
}
