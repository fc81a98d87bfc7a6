// The opt-in mutation job (issue 13) runs for hours, so nothing runs it in `npm test`: this guards what it promises,
// mutants of the reference's services and auth judged by the conformance suite alone, and keeps its output ignored.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const config = JSON.parse(readFileSync(path.join(root, 'stryker.config.json'), 'utf8')) as {
  testRunner: string;
  commandRunner: { command: string };
  mutate: string[];
  incrementalFile: string;
  tempDirName: string;
  jsonReporter: { fileName: string };
};
const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};

describe('npm run mutation', () => {
  it('mutates the sources of reference/services and reference/auth, never their tests', () => {
    expect(config.mutate).toEqual(
      expect.arrayContaining(['reference/services/**/*.ts', 'reference/auth/**/*.ts', '!**/*.test.ts']),
    );
    for (const folder of ['reference/services', 'reference/auth']) {
      const sources = readdirSync(path.join(root, folder), { recursive: true }).filter(
        (name) => String(name).endsWith('.ts') && !String(name).endsWith('.test.ts'),
      );
      expect(sources.length, folder).toBeGreaterThan(3);
    }
  });

  it('judges each mutant by the conformance suite alone, against the embedded reference', () => {
    expect(config.testRunner).toBe('command');
    expect(config.commandRunner.command).toMatch(/^node_modules\/\.bin\/tsx conformance\/cli\.ts\b/);
    expect(config.commandRunner.command).not.toMatch(/--base-url|vitest/);
    // A killed mutant ends at its first failed check instead of running the whole suite.
    expect(config.commandRunner.command.split(' ')).toContain('--bail');
    expect(packageJson.scripts.mutation).toBe('stryker run stryker.config.json');
  });

  it('writes its sandbox, reports and incremental results under the ignored .tmp/', () => {
    const ignored = readFileSync(path.join(root, '.gitignore'), 'utf8').split('\n');
    expect(ignored).toContain('.tmp/');
    for (const file of [config.incrementalFile, config.tempDirName, config.jsonReporter.fileName])
      expect(file.startsWith('.tmp/'), file).toBe(true);
  });
});
