// npm run conformance [-- --base-url <url> ...]: the requirement matrix of a deployment (the embedded reference by default).
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { helpText, InputError, inputs, isOn, readInputs, switches } from './harness/inputs.js';
import type { FileSpan } from './report/collector.js';
import type { CheckResult } from './report/results.js';

const root = path.resolve(import.meta.dirname, '..');

/** The five checks that took longest (durationMs of each check is in report.json): where a run's time goes. */
function slowestChecks(results: readonly CheckResult[]): string {
  const slowest = [...results].sort((a, b) => b.durationMs - a.durationMs).slice(0, 5);
  return [
    'slowest checks:',
    ...slowest.map(
      (each) =>
        `  ${(each.durationMs / 1000).toFixed(1).padStart(5)} s  ${path.basename(each.file)}  ${each.title.slice(0, 90)}`,
    ),
  ].join('\n');
}

/** Every check file's span on the run's clock (from queued to done) and its import time: what runs beside what. */
function fileTimes(spans: readonly FileSpan[], origin: number): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(6);
  return [
    'check files (start, end, import, seconds from the run start):',
    ...[...spans]
      .sort((a, b) => a.startMs - b.startMs)
      .map(
        (span) =>
          `${seconds(span.startMs - origin)} ${seconds(span.endMs - origin)} ${seconds(span.importMs)}  ${path.basename(span.file)}`,
      ),
  ].join('\n');
}

async function main(): Promise<number> {
  const options = Object.fromEntries(
    inputs.map(([flag]) => [flag, { type: switches.has(flag) ? ('boolean' as const) : ('string' as const) }]),
  );
  const { values, positionals } = parseArgs({
    options: { ...options, help: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help === true) {
    console.log(helpText());
    return 0;
  }
  const flags: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'string') flags[name] = value;
    else if (value === true && name !== 'help') flags[name] = 'true';
  }
  const input = readInputs(flags, process.env);
  // Loaded only once the input is valid: the harness and the reference take seconds to import, which --help and a
  // refused flag should not pay (the CLI's tests spawn it for each case).
  const [
    { catalogue },
    { resolveTarget },
    { readCaFile, trustForWorkers },
    { writeReports },
    results,
    terminal,
  ] = await Promise.all([
    import('./harness/catalogue.js'),
    import('./harness/resolve-target.js'),
    import('./harness/trust.js'),
    import('./report/files.js'),
    import('./report/results.js'),
    import('./report/terminal.js'),
  ]);
  const { buildMatrix, exitCodeOf, totalsOf, uncoveredInProfile } = results;
  const started = performance.now();
  const ca = input['ca-file'] === undefined ? null : await readCaFile(path.resolve(input['ca-file']));
  const resolved = await resolveTarget(input, root, ca);
  const resolvedAfter = performance.now() - started;
  const scratch = await mkdtemp(path.join(root, '.tmp-conformance-run-'));
  try {
    if (ca !== null) await trustForWorkers(ca, scratch);
    console.log(
      `conformance: ${resolved.target.embedded ? 'embedded reference' : 'deployment'} at ${resolved.target.baseUrl}, profile ${resolved.target.profile} (ready after ${(resolvedAfter / 1000).toFixed(1)} s)`,
    );
    const { runChecks } = await import('./run-checks.js');
    const collector = await runChecks(
      resolved.target,
      root,
      scratch,
      positionals,
      resolved.dataPlane ?? null,
      { bail: isOn(input, 'bail') },
    );
    const rows = buildMatrix(catalogue(), collector.results);
    const totals = totalsOf(rows, collector.suiteErrors.length);
    const reportDirectory = path.resolve(root, input['report-dir'] ?? 'conformance-report');
    const written = await writeReports(reportDirectory, rows, totals, resolved.target);
    console.log(
      `reports: ${written.map((file) => path.relative(process.cwd(), file)).join(', ')} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
    console.log(slowestChecks(collector.results));
    if (process.env.CONFORMANCE_FILE_TIMES === '1') console.log(fileTimes(collector.fileSpans, started));
    const allowUncovered = isOn(input, 'allow-uncovered');
    const uncovered = uncoveredInProfile(rows, resolved.target.profile).length;
    if (uncovered > 0)
      console.log(
        `${uncovered} requirements of profile ${resolved.target.profile} have no check${allowUncovered ? ' (allowed by --allow-uncovered)' : ': exit 1 (--allow-uncovered for a partial target)'}`,
      );
    if (isOn(input, 'bail') && totals.failed > 0)
      console.log(
        '--bail: stopped at the first failed check; the check files it cancelled are not in the reports',
      );
    console.log(terminal.terminalReport(rows, totals, collector.suiteErrors));
    return exitCodeOf(rows, totals, resolved.target.profile, allowUncovered);
  } finally {
    await resolved.release();
    await rm(scratch, { recursive: true, force: true });
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  const usage =
    error instanceof TypeError && String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS');
  if (!(error instanceof InputError) && !usage) throw error;
  console.error(`conformance: ${(error as Error).message}`);
  process.exitCode = 2;
}
