// The sandbox side of the mutation job's test runner (stryker-runner.ts loads it from Stryker's sandbox, so that it
// and the reference it starts are the instrumented copies). One call is one conformance run against fresh embedded
// references, each on a fresh in-memory test store: the check files asked for, their outcome per file.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
// Loaded with this module, before any test is named: the reference's module-level code then counts as static in the
// dry run, so Stryker gives its mutants a fresh process, where they are on while the modules load.
import '../harness/embedded-target.js';
import { createMemoryStore } from '../../reference/storage/testing/memory-store.js';
import { type EmbeddedTwins, resolveTarget } from '../harness/resolve-target.js';
import { dataPlaneFile, runChecks } from '../run-checks.js';
import { CheckFileAttribution, setCurrentTest } from './check-coverage.js';
import { type FileOutcome, outcomesByFile, startUp } from './file-outcomes.js';

const root = path.resolve(import.meta.dirname, '../..');

/** The twins the files need: the fast-clock one when a file reads it, the data-plane one for data-plane files. */
async function twinsFor(files: readonly string[]): Promise<EmbeddedTwins> {
  const sources = await Promise.all(
    files.map((file) => readFile(path.join(root, 'conformance/checks', file), 'utf8').catch(() => '')),
  );
  return {
    fastClock: sources.some((source) => source.includes('fastClock')),
    dataPlane: files.some((file) => dataPlaneFile(file)),
  };
}

/**
 * Runs the check files named in `files` (every one when null, or when `files` names the start-up) against fresh
 * embedded references, as `npm run conformance` does. `attribute`: the start-up and then one check file at a time,
 * each named as Stryker's current test (the dry run's per-file coverage); `bail`: stop at the first failed check.
 */
export async function runCheckFiles(
  files: readonly string[] | null,
  options: { bail: boolean; attribute: boolean },
): Promise<FileOutcome[]> {
  if (options.attribute) setCurrentTest(startUp);
  const started = performance.now();
  const filters = files === null || files.includes(startUp) ? [] : [...files];
  // Every reference on the in-memory test store: the mutants are in the services and auth above the store, and
  // opening the embedded database (PGlite on a thread of its own) was most of each mutant's run (ADR 0028, wave 13).
  const twins = {
    ...(filters.length === 0 ? { fastClock: true, dataPlane: true } : await twinsFor(filters)),
    store: createMemoryStore,
  };
  const resolved = await resolveTarget({}, root, null, twins);
  const startUpOutcome: FileOutcome = {
    file: startUp,
    failure: null,
    durationMs: performance.now() - started,
  };
  const scratch = await mkdtemp(path.join(root, '.tmp-conformance-run-'));
  try {
    const collector = await runChecks(resolved.target, root, scratch, filters, resolved.dataPlane ?? null, {
      bail: options.bail,
      reporters: options.attribute ? [new CheckFileAttribution()] : [],
      oneLaneAtATime: options.attribute,
      cacheModules: true,
    });
    return [startUpOutcome, ...outcomesByFile(collector.results, collector.suiteErrors)];
  } finally {
    await resolved.release();
    await rm(scratch, { recursive: true, force: true });
  }
}
