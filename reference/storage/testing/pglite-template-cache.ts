// The PGlite template of ADR 0031, kept between runs under node_modules/.cache (keyed by PGlite's version) so that a
// test run, or the mutation job's conformance runs, does not pay for initdb on every fresh data directory.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { openPgliteExecutor } from '../pglite-executor.js';

const root = path.resolve(import.meta.dirname, '../../..');

async function pgliteVersion(): Promise<string> {
  const manifest = path.join(root, 'node_modules/@electric-sql/pglite/package.json');
  return (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version;
}

/** The template for this PGlite version, made (initdb and nothing of ours) when it is not there yet. */
export async function ensurePgliteTemplate(): Promise<string> {
  const cache = path.join(root, 'node_modules/.cache/pglite-template');
  const template = path.join(cache, await pgliteVersion());
  if (existsSync(path.join(template, 'PG_VERSION'))) return template;
  await mkdir(cache, { recursive: true });
  const scratch = await mkdtemp(path.join(cache, 'making-'));
  try {
    const executor = await openPgliteExecutor(path.join(scratch, 'database'));
    await executor.close();
    // A rename is atomic: a run beside this one sees no template or a whole one (and keeps its own if it lost).
    await rename(path.join(scratch, 'database'), template).catch((error: NodeJS.ErrnoException) => {
      if (!existsSync(path.join(template, 'PG_VERSION'))) throw error;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return template;
}
