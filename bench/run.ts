// npm run bench — every benchmark in this folder, one after another, each printing medians and ratios.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const benchmarks = ['generate.ts', 'validators.ts', 'webhook-signature.ts', 'rest-api.ts', 'ingest.ts'];

for (const file of benchmarks) {
  const modulePath = path.join(import.meta.dirname, file);
  if (!existsSync(modulePath)) continue;
  const { run } = (await import(pathToFileURL(modulePath).href)) as { run: () => Promise<string> };
  console.log(`${await run()}\n`);
}
