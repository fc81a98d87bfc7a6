import { execFile } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Test runs only (ADR 0031): a directory holding what PGlite's initdb writes into an empty data directory. PGlite runs
 * initdb (in WebAssembly) on every fresh directory, 3–10 s on this 2-core machine and most of a reference's start-up;
 * `tests/support/global-setup.ts` makes it once (cached per PGlite version) and names it here, and each fresh data
 * directory of the run starts as a copy of it. Unset (every deployment, `npm start`), nothing changes.
 */
export const pgliteTemplateVariable = 'TELEMETRY_TEST_PGLITE_TEMPLATE';

/** Copies the template into `dataDir` when the variable names one and `dataDir` is absent or empty. */
export async function copyPgliteTemplate(
  dataDir: string,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const template = environment[pgliteTemplateVariable];
  if (template === undefined || template === '') return;
  await mkdir(dataDir, { recursive: true });
  // A directory with anything in it (a database, or what a test left to see refused) is opened as it is.
  if ((await readdir(dataDir)).length > 0) return;
  // cp -R copies the ~1,000 files of a cluster in a fraction of fs.cp's time.
  await promisify(execFile)('cp', ['-R', `${template}${path.sep}.`, dataDir]);
}
