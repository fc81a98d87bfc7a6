import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../config.js';
import { generateFiles } from '../../generate.js';
import { expectedFiles, renderGoldenCase, repositoryRoot, typeCheck } from '../../testing/golden.js';

const cases = ['crud-and-pagination', 'errors-and-retries', 'oauth'];
const museum = path.resolve(repositoryRoot, '../shared/fixtures/openapi/museum.yaml');

describe('client emitter (golden)', () => {
  it.each(cases)('%s', async (name) => {
    const caseDirectory = path.join(import.meta.dirname, 'golden', name);
    // The types artifact has golden tests of its own: here its output is only what client/ compiles against.
    const files = await renderGoldenCase(caseDirectory, ['types', 'client']);
    const clientFiles = files.filter((file) => file.path.startsWith('client/'));
    expect(clientFiles.length).toBeGreaterThan(0);
    for (const file of clientFiles) {
      await expect(file.content).toMatchFileSnapshot(path.join(caseDirectory, 'expected', file.path));
    }
    expect(typeCheck(expectedFiles(caseDirectory, files))).toEqual([]);
  });

  // A spec the emitter was not written for: no pagination rules, no catalogue, Basic auth, binary and empty bodies.
  it('museum.yaml type-checks', async (context) => {
    if (!existsSync(museum)) context.skip('../shared/fixtures/openapi/museum.yaml is missing');
    const outDir = path.join(repositoryRoot, '.tmp', 'fixtures', 'museum');
    const config = resolveConfig(
      {
        openapi: museum,
        asyncapi: null,
        outDir,
        runtimeDir: path.join(repositoryRoot, 'runtime'),
        artifacts: ['types', 'client'],
      },
      repositoryRoot,
    );
    const { files } = await generateFiles(config);
    expect(files.map((file) => file.path)).toContain('client/events.ts');
    expect(typeCheck(new Map(files.map((file) => [path.join(outDir, file.path), file.content])))).toEqual([]);
  });
});
