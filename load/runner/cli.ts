// npm run load -- <scenario> [--seconds N] [--target embedded|mosquitto|mqtt://…|https://…/v2] [options]
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { listScenarios, loadScenario, ScenarioError } from './load-scenario.js';
import { reportHtml } from './report-html.js';
import { resolveScenario } from './resolve-scenario.js';
import { defaultRunOptions, runScenario } from './run-scenario.js';
import { progressLine, summaryText } from './summary.js';
import { openTarget } from './targets/open-target.js';
import { TargetError } from './targets/target.js';
import { readTargetInputs, targetInputs } from './targets/target-inputs.js';
import { exitCodeOf } from './thresholds.js';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function helpText(): string {
  return [
    'npm run load -- <scenario> [options]',
    `Scenarios (load/scenarios/): ${listScenarios().join(', ')}; or a path to a .yaml file.`,
    '',
    "  --seconds N        hold the full load N seconds (replaces the scenario's durationSeconds; ramps come first)",
    "  --target T         embedded (default: the reference in a child process), mosquitto (Debian's broker,",
    '                     started here), mqtt://host:port (a bare broker), https://host/v2 (a deployment)',
    '  --workers N        driver threads per role (publishers, subscribers; default 2)',
    '  --warmup N         seconds the devices send at the rate before the measured run (default 2; not counted)',
    '  --report-dir D     where result.json and report.html go (default load-report)',
    ...targetInputs.map(([flag, variable, text]) => `  --${flag.padEnd(16)} ${variable}: ${text}`),
    '',
    'Exit code 0 when every threshold passed, 1 when one failed, 2 for bad input or an unreachable target.',
  ].join('\n');
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      help: { type: 'boolean' },
      seconds: { type: 'string' },
      target: { type: 'string' },
      workers: { type: 'string' },
      warmup: { type: 'string' },
      'report-dir': { type: 'string' },
      ...Object.fromEntries(targetInputs.map(([flag]) => [flag, { type: 'string' as const }])),
    },
  });
  if (values.help === true || positionals.length !== 1) {
    console.log(helpText());
    return values.help === true ? 0 : 2;
  }
  const seconds = values.seconds === undefined ? undefined : Number(values.seconds);
  if (seconds !== undefined && !(Number.isInteger(seconds) && seconds > 0))
    throw new ScenarioError(`--seconds must be a positive whole number, not "${values.seconds}"`);
  const workers = Number(values.workers ?? defaultRunOptions.workersPerRole);
  if (!(Number.isInteger(workers) && workers > 0))
    throw new ScenarioError('--workers must be a positive whole number');
  const warmupSeconds = Number(values.warmup ?? defaultRunOptions.warmupSeconds);
  if (!(Number.isInteger(warmupSeconds) && warmupSeconds >= 0))
    throw new ScenarioError('--warmup must be a whole number of seconds, 0 or more');
  const scenario = loadScenario(positionals[0] as string);
  const resolved = resolveScenario(scenario, seconds);
  const inputs = readTargetInputs(values as Record<string, string | undefined>, process.env);
  const target = await openTarget(values.target, inputs, resolved);
  try {
    console.log(
      `${scenario.name}: ${scenario.description}\ntarget: ${target.label}; ${resolved.profile.totalSeconds} s`,
    );
    const result = await runScenario(resolved, target, {
      ...defaultRunOptions,
      workersPerRole: workers,
      warmupSeconds,
      onSecond: (point, aggregator) => console.log(progressLine(point, aggregator)),
    });
    const summary = summaryText(result);
    console.log(summary);
    const reportDir = path.resolve(repositoryRoot, values['report-dir'] ?? 'load-report');
    await mkdir(reportDir, { recursive: true });
    await writeFile(path.join(reportDir, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
    await writeFile(path.join(reportDir, 'report.html'), reportHtml(result, summary));
    console.log(`  reports: ${path.relative(process.cwd(), reportDir) || '.'}/result.json, report.html`);
    return exitCodeOf(result.thresholds);
  } finally {
    await target.release();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  const userError =
    error instanceof ScenarioError ||
    error instanceof TargetError ||
    (error instanceof RangeError && !('code' in error)) ||
    String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS');
  if (!userError) throw error;
  console.error(`load: ${(error as Error).message}`);
  process.exitCode = 2;
}
