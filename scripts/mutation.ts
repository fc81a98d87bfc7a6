// npm run mutation [-- stryker options]: StrykerJS over reference/services and reference/auth with the conformance
// check files as its tests (stryker.config.json, ADR 0028). Every mutant's run starts fresh embedded references on the
// in-memory test store (conformance/mutation/session.ts), so no database is opened per mutant.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stryker = path.join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js');
// tsx in Stryker's own process too: it loads the runner plugin, a TypeScript file.
const child = spawn(
  process.execPath,
  ['--import', 'tsx', stryker, 'run', 'stryker.config.json', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal === null ? 1 : 128);
});
