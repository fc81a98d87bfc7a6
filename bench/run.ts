// npm run bench [-- --no-fail] [name ...] — the registered benchmarks one after another (or only those named), each
// printing its medians; then every promised ratio with its baseline. Exits 1 when a ratio misses its target, unless
// --no-fail (for exploration). A benchmark is a module exporting `run(): Promise<BenchReport | string>`.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type BenchReport, formatCheck, meetsTarget, type RatioCheck } from './harness.js';

/** Name → file in this folder. Add a line for a new benchmark; a file that is not there yet is skipped. */
const registry: Readonly<Record<string, string>> = {
  generate: 'generate.ts',
  validators: 'validators.ts',
  'webhook-signature': 'webhook-signature.ts',
  'rest-api': 'rest-api.ts',
  ingest: 'ingest.ts',
  fanout: 'fanout.ts',
  delivery: 'delivery.ts',
};

const { values, positionals } = parseArgs({
  options: { 'no-fail': { type: 'boolean', default: false } },
  allowPositionals: true,
});
const unknown = positionals.filter((name) => !(name in registry));
if (unknown.length > 0) {
  console.error(
    `bench: unknown benchmark ${unknown.join(', ')} (known: ${Object.keys(registry).join(', ')})`,
  );
  process.exit(2);
}

const checks: RatioCheck[] = [];
for (const [name, file] of Object.entries(registry)) {
  if (positionals.length > 0 && !positionals.includes(name)) continue;
  const modulePath = path.join(import.meta.dirname, file);
  if (!existsSync(modulePath)) continue;
  const { run } = (await import(pathToFileURL(modulePath).href)) as {
    run: () => Promise<BenchReport | string>;
  };
  const report = await run();
  if (typeof report === 'string') {
    console.log(`${report}\n`);
  } else {
    console.log(`${report.text}\n`);
    checks.push(...report.checks);
  }
}

const missed = checks.filter((check) => !meetsTarget(check));
console.log(
  [
    'Ratios (each against its baseline, measured side by side in this run; the machine may be shared, so rounds vary):',
    ...checks.map((check) => `  ${formatCheck(check)}`),
    `${checks.length - missed.length} of ${checks.length} ratios meet their targets.`,
  ].join('\n'),
);
if (missed.length > 0 && !values['no-fail']) process.exitCode = 1;
