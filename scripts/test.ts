// npm test [-- <vitest arguments>] — the static checks (tsc, Biome, the spec lint) beside the vitest suites, not
// before them: vitest leaves part of the machine idle while its tests wait on timers, sockets and child processes,
// and the checks (about 30 s of one core, one after another) fit there (ADR 0031). The checks run at a lower priority
// so that the tests' timers come first; their output is printed as each ends. Exits with the first failure's code.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import path from 'node:path';

interface Step {
  name: string;
  command: string;
  args: readonly string[];
}

const repositoryRoot = path.join(import.meta.dirname, '..');
/**
 * tsc keeps what it learnt about each file (a hash of its text, its declarations' signature, its diagnostics) here and
 * checks again only the files whose text or dependencies changed: a run with nothing changed takes about a quarter
 * of a full check's CPU (ADR 0031, wave 10). A fresh clone has no such file and checks everything; a TypeScript
 * upgrade makes tsc discard it.
 */
const typeCheckState = path.join(repositoryRoot, 'node_modules', '.cache', 'tsc', 'npm-test.tsbuildinfo');

const staticChecks: readonly Step[] = [
  {
    name: 'typecheck',
    command: 'tsc',
    args: ['--noEmit', '--incremental', '--tsBuildInfoFile', typeCheckState],
  },
  { name: 'lint', command: 'biome', args: ['check', '.'] },
  { name: 'lint:spec', command: 'tsx', args: ['scripts/lint-spec.ts'] },
];
/** Lower than the tests' (0): a check may take longer, a test's timer may not. */
const staticCheckNiceness = 10;
/** The repository's own binaries, also when this file is run without npm. */
const binaries = path.join(repositoryRoot, 'node_modules', '.bin');

function exitCodeOf(child: ReturnType<typeof spawn>): Promise<number> {
  return new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('close', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

/** Runs a check with its output kept, then prints it whole, so it is not interleaved with vitest's. */
async function runStaticCheck(step: Step): Promise<number> {
  const child = spawn(path.join(binaries, step.command), step.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid !== undefined) {
    try {
      setPriority(child.pid, staticCheckNiceness);
    } catch {
      // Not allowed here (a container without the capability): the check runs at the tests' priority.
    }
  }
  const output: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  const code = await exitCodeOf(child);
  const verdict = code === 0 ? 'passed' : `FAILED (exit ${code})`;
  process.stdout.write(`\n── npm test: ${step.name} ${verdict} ──\n${Buffer.concat(output).toString()}\n`);
  return code;
}

const vitest = spawn(path.join(binaries, 'vitest'), ['run', ...process.argv.slice(2)], { stdio: 'inherit' });
const codes = await Promise.all([...staticChecks.map(runStaticCheck), exitCodeOf(vitest)]);
const failed = codes.findIndex((code) => code !== 0);
if (failed !== -1) {
  const names = [...staticChecks.map((step) => step.name), 'vitest'];
  const failures = names.filter((_name, index) => codes[index] !== 0);
  console.error(`npm test: ${failures.join(', ')} failed`);
  process.exitCode = codes[failed];
}
