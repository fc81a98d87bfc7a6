// Runs once per `vitest run`, before any test file: the PGlite template of ADR 0031 (made once, then cached).
import { pgliteTemplateVariable } from '../../reference/storage/pglite-template.js';
import { ensurePgliteTemplate } from '../../reference/storage/testing/pglite-template-cache.js';

export default async function setup(): Promise<void> {
  // Forked workers (and the services they spawn) inherit the main process's environment.
  process.env[pgliteTemplateVariable] = await ensurePgliteTemplate();
}
