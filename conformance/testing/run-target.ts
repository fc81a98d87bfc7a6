// tsx conformance/testing/run-target.ts <scratch directory> [check file filters...]
// Runs the checks against the target in <scratch>/target.json in a process of its own (vitest cannot start vitest
// inside a test worker) and writes what each check did to <scratch>/results.json. The caller owns the directory and
// removes it, so nothing is left behind even when this process is killed.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TargetDescription } from '../harness/target.js';
import { runChecks } from '../run-checks.js';

const root = path.resolve(import.meta.dirname, '../..');
const [scratch, ...filters] = process.argv.slice(2);
if (scratch === undefined) {
  console.error('usage: run-target.ts <scratch directory> [filters...]');
  process.exit(2);
}
const target = JSON.parse(await readFile(path.join(scratch, 'target.json'), 'utf8')) as TargetDescription;
const collector = await runChecks(target, root, scratch, filters);
await writeFile(
  path.join(scratch, 'results.json'),
  JSON.stringify({ results: collector.results, suiteErrors: collector.suiteErrors }),
);
