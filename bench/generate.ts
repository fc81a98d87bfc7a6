// npx tsx bench/generate.ts — wall time of the whole `npm run generate` (a fresh process each round, as a user runs it).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { medianMilliseconds } from './harness.js';

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

export async function run(rounds = 7): Promise<string> {
  const inProcessCli = () =>
    Promise.resolve(execFileSync(tsx, ['generators/cli.ts', '--check'], { cwd: root, stdio: 'pipe' }));
  const viaNpm = () =>
    Promise.resolve(
      execFileSync('npm', ['run', '-s', 'generate', '--', '--check'], { cwd: root, stdio: 'pipe' }),
    );
  const cli = await medianMilliseconds(inProcessCli, rounds);
  const npm = await medianMilliseconds(viaNpm, rounds);
  return [
    `generate (median of ${rounds} runs, each a fresh process; --check so the tree is not written)`,
    `  tsx generators/cli.ts --check           ${(cli.median / 1000).toFixed(2)} s  (runs: ${cli.all.map((ms) => (ms / 1000).toFixed(2)).join(', ')})`,
    `  npm run generate -- --check             ${(npm.median / 1000).toFixed(2)} s  (target < 5 s)`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
