import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../config.js';
import { generateFiles } from '../../generate.js';
import { expectedFiles, renderGoldenCase, repositoryRoot, typeCheck } from '../../testing/golden.js';

const cases = ['mqtt-channel', 'websocket-channel', 'mixed-content-types'];

describe('messages emitter (golden)', () => {
  it.each(cases)('%s', async (name) => {
    const caseDirectory = path.join(import.meta.dirname, 'golden', name);
    const files = await renderGoldenCase(caseDirectory, ['types', 'messages']);
    expect(files.some((file) => file.path.startsWith('messages/'))).toBe(true);
    // The types artifact has golden tests of its own: here its output is only what messages/ compiles against.
    for (const file of files.filter((generated) => generated.path.startsWith('messages/'))) {
      await expect(file.content).toMatchFileSnapshot(path.join(caseDirectory, 'expected', file.path));
    }
    expect(typeCheck(expectedFiles(caseDirectory, files))).toEqual([]);
  });
});

// Public documents the generators were not written for; see ../shared/fixtures/README.md.
const fixturesDirectory = path.resolve(repositoryRoot, '../shared/fixtures/asyncapi');
const fixtures = existsSync(fixturesDirectory)
  ? readdirSync(fixturesDirectory)
      .filter((file) => /\.ya?ml$/.test(file))
      .sort()
  : [];
if (fixtures.length === 0) {
  console.info(
    `messages emitter: no AsyncAPI fixtures in ${path.relative(repositoryRoot, fixturesDirectory)}; skipped`,
  );
}

describe.skipIf(fixtures.length === 0)('messages emitter on public AsyncAPI documents', () => {
  it.each(fixtures.length === 0 ? ['(none)'] : fixtures)('%s type-checks', async (fixture) => {
    // Rendered as if into a folder of this repository (ESM by its package.json), and type-checked from memory.
    const outDir = path.join(repositoryRoot, '.tmp', 'fixtures', fixture);
    const config = resolveConfig(
      {
        openapi: null,
        asyncapi: path.join(fixturesDirectory, fixture),
        outDir,
        runtimeDir: path.join(repositoryRoot, 'runtime'),
        artifacts: ['types', 'messages'],
      },
      repositoryRoot,
    );
    const { files } = await generateFiles(config);
    expect(files.some((file) => file.path.startsWith('messages/'))).toBe(true);
    expect(typeCheck(new Map(files.map((file) => [path.join(outDir, file.path), file.content])))).toEqual([]);
  });
});
