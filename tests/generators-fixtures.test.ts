import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactNames, resolveConfig } from '../generators/config.js';
import { generateFiles } from '../generators/generate.js';
import { repositoryRoot, typeCheck } from '../generators/testing/golden.js';

// Public documents the generators were not written for (../shared/fixtures, beside the repository, not in a clone).
const fixtures = path.resolve(repositoryRoot, '../shared/fixtures');
const openapi = path.join(fixtures, 'openapi/museum.yaml');
const asyncapiDocuments = existsSync(fixtures)
  ? readdirSync(path.join(fixtures, 'asyncapi'))
      .filter((file) => /\.ya?ml$/.test(file))
      .sort()
  : [];
if (!existsSync(fixtures))
  console.info('generators on public fixtures: ../shared/fixtures is absent; skipped');

describe.skipIf(!existsSync(fixtures))('every artifact from public documents', () => {
  it.each(asyncapiDocuments)('museum.yaml with %s generates and type-checks', async (asyncapi) => {
    const outDir = path.join(repositoryRoot, '.tmp', 'fixtures', `all-${asyncapi}`);
    const config = resolveConfig(
      {
        openapi,
        asyncapi: path.join(fixtures, 'asyncapi', asyncapi),
        outDir,
        runtimeDir: path.join(repositoryRoot, 'runtime'),
        artifacts: [...artifactNames],
      },
      repositoryRoot,
    );
    const { files, warnings } = await generateFiles(config);
    const produced = new Set(files.map((file) => file.path.split('/')[0]));
    // museum.yaml has no error envelope marked for the server, so every other artifact must be there.
    expect([...produced].sort()).toEqual(['client', 'messages', 'types', 'validators', 'webhooks']);
    expect(warnings.map((warning) => warning.rule)).toContain('emit/server');
    const typeScript = files.filter((file) => file.path.endsWith('.ts'));
    expect(
      typeCheck(new Map(typeScript.map((file) => [path.join(outDir, file.path), file.content]))),
    ).toEqual([]);
  });
});
