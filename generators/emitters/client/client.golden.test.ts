import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../config.js';
import { generateFiles } from '../../generate.js';
import { expectedFiles, renderGoldenCase, repositoryRoot, typeCheck } from '../../testing/golden.js';
import type { GeneratedFile } from '../generated-file.js';

const cases = ['crud-and-pagination', 'errors-and-retries', 'oauth'];

/** The client's copies of what it imports (vendor.ts): checked against their sources, not snapshotted. */
function isCopy(file: string): boolean {
  return file.startsWith('client/runtime/') || file.startsWith('client/types/');
}

function expectCopiesOfTheirSources(files: readonly GeneratedFile[]): void {
  const byPath = new Map(files.map((file) => [file.path, file.content]));
  const copies = files.filter((file) => isCopy(file.path));
  expect(copies.map((file) => file.path)).toEqual(
    expect.arrayContaining(['client/runtime/http/transport.ts', 'client/types/operations.ts']),
  );
  for (const copy of copies) {
    const source = copy.path.startsWith('client/types/')
      ? byPath.get(copy.path.slice('client/'.length))
      : readFileSync(path.join(repositoryRoot, 'runtime', copy.path.slice('client/runtime/'.length)), 'utf8');
    expect(copy.content.endsWith(source ?? 'no source'), copy.path).toBe(true);
  }
}
const museum = path.resolve(repositoryRoot, '../shared/fixtures/openapi/museum.yaml');

describe('client emitter (golden)', () => {
  it.each(cases)('%s', async (name) => {
    const caseDirectory = path.join(import.meta.dirname, 'golden', name);
    // The types artifact has golden tests of its own: here its output is only what client/ compiles against.
    const files = await renderGoldenCase(caseDirectory, ['types', 'client']);
    const clientFiles = files.filter((file) => file.path.startsWith('client/'));
    const written = clientFiles.filter((file) => !isCopy(file.path));
    expect(written.length).toBeGreaterThan(0);
    for (const file of written) {
      await expect(file.content).toMatchFileSnapshot(path.join(caseDirectory, 'expected', file.path));
    }
    expectCopiesOfTheirSources(files);
    // client/ alone, with nothing of types/ or runtime/ beside it: the folder is self-contained (issue 12, item 13).
    expect(typeCheck(expectedFiles(caseDirectory, clientFiles))).toEqual([]);
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
