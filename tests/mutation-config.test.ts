// The opt-in mutation job (issue 13) runs for about an hour or more, so nothing runs it in `npm test`: this guards what it promises,
// mutants of the reference's services and auth judged by the conformance suite alone, and keeps its output ignored.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const config = JSON.parse(readFileSync(path.join(root, 'stryker.config.json'), 'utf8')) as {
  testRunner: string;
  plugins: string[];
  testRunnerNodeArgs: string[];
  coverageAnalysis: string;
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

  it('judges each mutant by the conformance check files alone, through the runner plugin it loads', async () => {
    const plugins = await Promise.all(
      config.plugins.map(
        async (file) =>
          ((await import(path.join(root, file))) as { strykerPlugins: { kind: string; name: string }[] })
            .strykerPlugins,
      ),
    );
    expect(plugins.flat().map(({ kind, name }) => `${kind}:${name}`)).toEqual(
      expect.arrayContaining([`TestRunner:${config.testRunner}`, 'Reporter:mutant-log']),
    );
    // Per-test coverage: a mutant runs only the check files that reached it; the plugin is TypeScript, loaded by tsx.
    expect(config.coverageAnalysis).toBe('perTest');
    expect(config.testRunnerNodeArgs.join(' ')).toBe('--import tsx');
    expect(packageJson.scripts.mutation).toBe('tsx scripts/mutation.ts');
    const script = readFileSync(path.join(root, 'scripts/mutation.ts'), 'utf8');
    expect(script).toMatch(/'--import', 'tsx', stryker, 'run', 'stryker\.config\.json'/);
  });

  it('writes its sandbox, reports and incremental results under the ignored .tmp/', () => {
    const ignored = readFileSync(path.join(root, '.gitignore'), 'utf8').split('\n');
    expect(ignored).toContain('.tmp/');
    for (const file of [config.incrementalFile, config.tempDirName, config.jsonReporter.fileName])
      expect(file.startsWith('.tmp/'), file).toBe(true);
  });
});
