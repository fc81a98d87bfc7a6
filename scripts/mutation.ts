// npm run mutation [-- stryker options]: StrykerJS over reference/services and reference/auth with the conformance
// check files as its tests (stryker.config.json, ADR 0028). Every mutant's run starts fresh embedded references; the
// PGlite template (ADR 0031) is made here once and named in the environment that Stryker's runner processes inherit,
// so each start copies it instead of running initdb.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pgliteTemplateVariable } from '../reference/storage/pglite-template.js';
import { ensurePgliteTemplate } from '../reference/storage/testing/pglite-template-cache.js';

const root = path.resolve(import.meta.dirname, '..');
const stryker = path.join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js');
const environment = { ...process.env, [pgliteTemplateVariable]: await ensurePgliteTemplate() };
// tsx in Stryker's own process too: it loads the runner plugin, a TypeScript file.
const child = spawn(
  process.execPath,
  ['--import', 'tsx', stryker, 'run', 'stryker.config.json', ...process.argv.slice(2)],
  { cwd: root, env: environment, stdio: 'inherit' },
);
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal === null ? 1 : 128);
});
