import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Reporter, startVitest } from 'vitest/node';
import { FirstFailure } from './first-failure.js';
import { type TargetDescription, targetFileVariable } from './harness/target.js';
import { CheckCollector } from './report/collector.js';

/**
 * Check files that touch nothing the others count on (the fast-clock twin's account, raw sockets that create no
 * objects): against the embedded default they run in a lane of their own beside the rest, which saves their waits
 * (the retry schedule, the header time limit) from the run's length. Against a deployment everything is one lane,
 * since their webhooks would count against the account's limit that another check fills.
 */
const besideLane = ['25-rest-framing', '56-time-scale', '57-oauth-lifetimes', '82-webhook-retries'];

/** The data-plane check files (MQTT, live feed, recording, webhook deliveries): numbered 70 to 89. */
export const dataPlaneFile = (file: string) => /^[78]\d-/.test(path.basename(file));

async function checkFiles(root: string, filters: string[]): Promise<string[]> {
  const directory = path.join(root, 'conformance/checks');
  const names = (await readdir(directory)).filter((name) => name.endsWith('.check.ts')).sort();
  const files = names.map((name) => path.join('conformance/checks', name));
  return filters.length === 0
    ? files
    : files.filter((file) => filters.some((filter) => file.includes(filter)));
}

async function writeTarget(file: string, target: TargetDescription): Promise<string> {
  await writeFile(file, JSON.stringify(target), { mode: 0o600 });
  return file;
}

async function runLane(
  root: string,
  targetFile: string,
  files: string[],
  extraReporters: Reporter[],
  cacheModules: boolean,
): Promise<CheckCollector> {
  const collector = new CheckCollector(root);
  if (files.length === 0) return collector;
  const reporters: Reporter[] = [collector, ...extraReporters];
  const vitest = await startVitest('test', files, {
    root,
    config: path.join(root, 'conformance/vitest.config.ts'),
    watch: false,
    reporters,
    env: { [targetFileVariable]: targetFile },
    // Vitest's transformed modules kept on disk between runs: a lane's worker then imports the suite's modules in
    // about half the time (the mutation job starts a lane per mutant; experimental in Vitest 4, so only there).
    ...(cacheModules ? { experimental: { fsModuleCache: true } } : {}),
  });
  await vitest.close();
  return collector;
}

/**
 * Runs every check file against the target and returns what each did. For the embedded default in three lanes at
 * once: the fast-clock and raw-socket files beside the rest, and the data-plane files against `dataPlane` (a
 * reference of their own) when given; the REST files, and the rate-limit files after them, in the main lane.
 * With `bail`, the first failed check cancels every lane: the files not yet run are left out of the results.
 * `reporters` join the harness's own in every lane; `oneLaneAtATime` runs the lanes in turn, so that only one check
 * file runs at any moment (the mutation job's coverage run attributes what the reference executes to that file);
 * `cacheModules` keeps Vitest's transformed modules on disk between runs (the mutation job).
 */
export async function runChecks(
  target: TargetDescription,
  root: string,
  scratch: string,
  filters: string[] = [],
  dataPlane: TargetDescription | null = null,
  options: { bail?: boolean; reporters?: Reporter[]; oneLaneAtATime?: boolean; cacheModules?: boolean } = {},
): Promise<CheckCollector> {
  const targetFile = await writeTarget(path.join(scratch, 'target.json'), target);
  process.env[targetFileVariable] = targetFile;
  const files = await checkFiles(root, filters);
  const beside =
    target.fastClock === null ? [] : files.filter((file) => besideLane.some((name) => file.includes(name)));
  const ownReference =
    dataPlane === null ? [] : files.filter((file) => dataPlaneFile(file) && !beside.includes(file));
  const main = files.filter((file) => !beside.includes(file) && !ownReference.includes(file));
  const dataPlaneTargetFile =
    dataPlane === null
      ? targetFile
      : await writeTarget(path.join(scratch, 'data-plane-target.json'), dataPlane);
  const reporters = [...(options.bail === true ? [new FirstFailure()] : []), ...(options.reporters ?? [])];
  const cacheModules = options.cacheModules === true;
  const laneRuns = [
    () => runLane(root, targetFile, main, reporters, cacheModules),
    () => runLane(root, targetFile, beside, reporters, cacheModules),
    () => runLane(root, dataPlaneTargetFile, ownReference, reporters, cacheModules),
  ];
  const lanes: CheckCollector[] = [];
  if (options.oneLaneAtATime === true) for (const run of laneRuns) lanes.push(await run());
  else lanes.push(...(await Promise.all(laneRuns.map((run) => run()))));
  const merged = new CheckCollector(root);
  for (const lane of lanes) {
    merged.results.push(...lane.results);
    merged.suiteErrors.push(...lane.suiteErrors);
    merged.fileSpans.push(...lane.fileSpans);
  }
  return merged;
}
