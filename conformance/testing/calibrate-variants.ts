// tsx conformance/testing/calibrate-variants.ts [name fragment]
// Runs each broken variant (or those whose name contains the fragment), in both profiles where it declares
// `breaksDocumented`, and prints the requirements it fails, with
// the failing checks: when a check file changes what it names, this gives the new `breaks` of faults.ts to review.
import path from 'node:path';
import type { Profile } from '../catalogue/requirement.js';
import { startFaultProxy } from './fault-proxy.js';
import { brokenVariants } from './faults.js';
import { startReference } from './reference-under-test.js';
import { idsWith, runIsolated } from './run-isolated.js';

const root = path.resolve(import.meta.dirname, '../..');
const fragment = process.argv[2] ?? '';
const chosen = brokenVariants.filter((variant) => variant.name.includes(fragment));

for (const variant of chosen) {
  const profiles: Profile[] = variant.breaksDocumented === undefined ? ['full'] : ['full', 'documented'];
  for (const profile of profiles) {
    const declared = profile === 'full' ? variant.breaks : (variant.breaksDocumented ?? []);
    // One reference per variant: slower than the test's lanes, but nothing of one run can touch another.
    const reference = await startReference(root, 1);
    const proxy = await startFaultProxy(reference.service.urls, variant.fault(reference.credentials));
    try {
      const run = await runIsolated(root, reference.targetAt(proxy, profile), variant.files);
      const failed = idsWith(run, 'failed');
      const same = JSON.stringify(failed) === JSON.stringify([...declared].sort());
      console.log(
        `\n${variant.name} (${variant.files.join(', ')}, ${profile}): ${same ? 'as declared' : 'CHANGED'}`,
      );
      console.log(`  breaks: ${JSON.stringify(failed)}`);
      for (const result of run.results.filter((each) => each.state === 'failed'))
        console.log(`  failed: ${result.title}\n    ${(result.detail ?? '').split('\n')[0]}`);
      for (const error of run.suiteErrors) console.log(`  suite error: ${error}`);
    } finally {
      await proxy.close();
      await reference.stop();
    }
  }
}
