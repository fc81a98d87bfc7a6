// npx tsx bench/generate.ts — wall time of `npm run generate -- --check` (a fresh process each round, as a user runs
// it), with the cache warm and without it, against openapi-typescript alone on the same OpenAPI document.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type BenchReport, type BenchResult, median, pairedRatio } from './harness.js';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
/** Issue 16: generate at most this many times openapi-typescript alone, and under this many seconds. */
const ratioTarget = 3;
const secondsTarget = 5;

interface Command {
  label: string;
  file: string;
  args: string[];
}

function seconds(command: Command): number {
  const started = performance.now();
  execFileSync(command.file, command.args, { cwd: root, stdio: 'pipe' });
  return (performance.now() - started) / 1000;
}

/** Each round runs every command once, in turn, so that load on the machine hits all of them alike. */
function measure(commands: readonly Command[], rounds: number): BenchResult[] {
  const samples = commands.map(() => [] as number[]);
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, command] of commands.entries()) samples[index]?.push(seconds(command));
  }
  return commands.map((command, index) => ({
    label: command.label,
    medianOpsPerSecond: 1 / median(samples[index] ?? []),
    rounds: samples[index] ?? [],
  }));
}

const line = (result: BenchResult) =>
  `  ${result.label.padEnd(48)} ${median(result.rounds).toFixed(2).padStart(6)} s  (runs: ${result.rounds.map((value) => value.toFixed(2)).join(', ')})`;

export async function run(rounds = 5): Promise<BenchReport> {
  mkdirSync(path.join(root, '.tmp'), { recursive: true });
  const check: Command = {
    label: 'tsx generators/cli.ts --check (cache warm)',
    file: bin('tsx'),
    args: ['generators/cli.ts', '--check'],
  };
  // Warm the cache (and tsx's own) once, so every measured round is a cold process with a warm cache.
  seconds(check);
  const warm = measure(
    [
      check,
      {
        label: 'npm run generate -- --check (cache warm)',
        file: 'npm',
        args: ['run', '-s', 'generate', '--', '--check'],
      },
      {
        label: 'openapi-typescript alone (same document)',
        file: bin('openapi-typescript'),
        args: ['spec/openapi.yaml', '--output', '.tmp/bench-openapi-typescript.ts'],
      },
    ],
    rounds,
  );
  const uncached = measure(
    [
      {
        label: 'tsx generators/cli.ts --check --no-cache',
        file: bin('tsx'),
        args: ['generators/cli.ts', '--check', '--no-cache'],
      },
    ],
    Math.max(1, Math.ceil(rounds / 2)),
  );
  const [direct, viaNpm, alone] = warm;
  if (!direct || !viaNpm || !alone) throw new Error('a command has no result');
  const npmSeconds = median(viaNpm.rounds);
  return {
    text: [
      `generate (median of ${rounds} runs, each a fresh process; --check so the tree is not written)`,
      ...[...warm, ...uncached].map(line),
      `  npm run generate -- --check, cache warm: ${npmSeconds.toFixed(2)} s, target < ${secondsTarget} s on a quiet machine: ${npmSeconds < secondsTarget ? 'meets' : 'misses'} (absolute, so not judged by the exit code)`,
      '  the cache: node_modules/.cache/telemetry-generate (ADR 0015); --no-cache shows a run after a change to everything',
    ].join('\n'),
    // Rounds hold seconds here, so the ratio is of times: lower is better.
    checks: [pairedRatio('generate, cache warm', direct, alone, ratioTarget, 'at-most')],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await run()).text);
