// Runs once per `vitest run`, before any test file: the PGlite template of ADR 0031, kept between runs under
// node_modules/.cache (keyed by PGlite's version) so a run of one file does not pay for initdb either.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { openPgliteExecutor } from '../../reference/storage/pglite-executor.js';
import { pgliteTemplateVariable } from '../../reference/storage/pglite-template.js';

const root = path.resolve(import.meta.dirname, '../..');

async function pgliteVersion(): Promise<string> {
  const manifest = path.join(root, 'node_modules/@electric-sql/pglite/package.json');
  return (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version;
}

/** The template for this PGlite version, made (initdb and nothing of ours) when it is not there yet. */
async function ensureTemplate(): Promise<string> {
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

export default async function setup(): Promise<void> {
  // Forked workers (and the services they spawn) inherit the main process's environment.
  process.env[pgliteTemplateVariable] = await ensureTemplate();
}
