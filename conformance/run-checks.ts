import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startVitest } from 'vitest/node';
import { type TargetDescription, targetFileVariable } from './harness/target.js';
import { CheckCollector } from './report/collector.js';

/** Runs every check file against the target in one vitest run and returns what each check did. */
export async function runChecks(
  target: TargetDescription,
  root: string,
  scratch: string,
  filters: string[] = [],
): Promise<CheckCollector> {
  const targetFile = path.join(scratch, 'target.json');
  await writeFile(targetFile, JSON.stringify(target), { mode: 0o600 });
  process.env[targetFileVariable] = targetFile;
  const collector = new CheckCollector(root);
  const vitest = await startVitest('test', filters, {
    root,
    config: path.join(root, 'conformance/vitest.config.ts'),
    watch: false,
    reporters: [collector],
  });
  await vitest.close();
  return collector;
}
