// Runs once per `vitest run`, before any test file: the PGlite template of ADR 0031.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPgliteExecutor } from '../../reference/storage/pglite-executor.js';
import { pgliteTemplateVariable } from '../../reference/storage/pglite-template.js';

export default async function setup(): Promise<() => Promise<void>> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'pglite-template-'));
  const template = path.join(scratch, 'database');
  // What initdb writes and nothing of ours: every test still runs the migrations and the seed on its copy.
  const executor = await openPgliteExecutor(template);
  await executor.close();
  // Forked workers (and the services they spawn) inherit the main process's environment.
  process.env[pgliteTemplateVariable] = template;
  return async () => {
    delete process.env[pgliteTemplateVariable];
    await rm(scratch, { recursive: true, force: true });
  };
}
