// tsx conformance/testing/calibrate-data-plane-variants.ts [name fragment]
// Runs each data-plane variant (or those whose name contains the fragment) and prints the requirements it fails,
// with the failing checks: the `breaks` of data-plane-variants.ts to review when a check changes what it names.
import path from 'node:path';
import { dataPlaneVariants } from './data-plane-variants.js';
import { runDataPlaneVariant } from './run-data-plane-variant.js';
import { idsWith } from './run-isolated.js';

const root = path.resolve(import.meta.dirname, '../..');
const fragment = process.argv[2] ?? '';

for (const variant of dataPlaneVariants.filter((each) => each.name.includes(fragment))) {
  const started = performance.now();
  const { run, proxied } = await runDataPlaneVariant(root, variant);
  const failed = idsWith(run, 'failed');
  const same = JSON.stringify(failed) === JSON.stringify([...variant.breaks].sort());
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `\n${variant.name} (${variant.files.join(', ')}, ${seconds} s): ${same ? 'as declared' : 'CHANGED'}`,
  );
  console.log(`  breaks: ${JSON.stringify(failed)}${proxied === null ? '' : ` (proxy touched ${proxied})`}`);
  for (const result of run.results.filter((each) => each.state === 'failed'))
    console.log(`  failed: ${result.title}\n    ${(result.detail ?? '').split('\n')[0]}`);
  for (const error of run.suiteErrors) console.log(`  suite error: ${error}`);
}
