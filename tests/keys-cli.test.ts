// `npm run keys -- --help` prints the commands and exits 0 (issue 12, item 15); an unknown command points at it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
const keys = (...args: string[]) =>
  spawnSync('npm', ['run', '--silent', 'keys', '--', ...args], { cwd: repositoryRoot, encoding: 'utf8' });

describe('npm run keys', () => {
  it('explains itself with --help', () => {
    const help = keys('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('clients create --account <id>');
    const unknown = keys('bogus');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('--help explains them');
  }, 60_000);
});
