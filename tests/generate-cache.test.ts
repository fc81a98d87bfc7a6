// The generator's cache (ADR 0015) never answers with a stale result: a change to any file a result was made from,
// a referenced schema included, gives the same output as a run without the cache.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../generators/config.js';
import { generateFiles } from '../generators/generate.js';
import { loadSpecs } from '../generators/load/load-specs.js';
import { repositoryRoot } from '../generators/testing/golden.js';

const openapi = `openapi: 3.1.0
info: { title: Cache test, version: '1', license: { name: MIT, identifier: MIT } }
servers: [{ url: 'https://example.com' }]
security: []
paths:
  /things:
    get:
      operationId: listThings
      summary: List things
      responses:
        '200':
          description: The things.
          content:
            application/json:
              schema: { $ref: './schemas/thing.yaml' }
        '404':
          description: None.
`;
const thing = (description: string) => `title: Thing
description: ${description}
type: object
properties:
  name: { type: string, maxLength: 10 }
`;

let root = '';
let cacheDir = '';
const config = () =>
  resolveConfig(
    {
      openapi: 'openapi.yaml',
      asyncapi: null,
      outDir: 'generated',
      runtimeDir: path.join(repositoryRoot, 'runtime'),
      artifacts: ['types'],
    },
    root,
  );
const contentOf = (files: { path: string; content: string }[]) =>
  Object.fromEntries(files.map((file) => [file.path, file.content]));
const cached = async () => contentOf((await generateFiles(config(), { cacheDir })).files);
const uncached = async () => contentOf((await generateFiles(config())).files);

beforeAll(async () => {
  await mkdir(path.join(repositoryRoot, '.tmp'), { recursive: true });
  root = mkdtempSync(path.join(repositoryRoot, '.tmp', 'generate-cache-'));
  cacheDir = path.join(root, 'cache');
  await mkdir(path.join(root, 'schemas'));
  writeFileSync(path.join(root, 'openapi.yaml'), openapi);
  writeFileSync(path.join(root, 'schemas', 'thing.yaml'), thing('A first thing.'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('generate cache', () => {
  it('gives what a run without it gives, and serves a second run from its entries', async () => {
    const first = await cached();
    expect(first).toEqual(await uncached());
    const emitEntry = path.join(cacheDir, 'emit.json');
    const written = statSync(emitEntry).mtimeMs;
    expect(await cached()).toEqual(first);
    expect(statSync(emitEntry).mtimeMs).toBe(written);
    // Proof that the second run read the entry: a planted change under the same key comes back.
    const stored = JSON.parse(readFileSync(emitEntry, 'utf8')) as {
      entry: { files: { path: string; content: string }[] };
    };
    for (const file of stored.entry.files) file.content = `${file.content}// planted\n`;
    writeFileSync(emitEntry, JSON.stringify(stored));
    expect(Object.values(await cached()).every((content) => content.endsWith('// planted\n'))).toBe(true);
  });

  it('follows an edit of a referenced schema file, not only of the document', async () => {
    const before = await cached();
    writeFileSync(path.join(root, 'schemas', 'thing.yaml'), thing('A changed thing.'));
    const after = await cached();
    expect(after).not.toEqual(before);
    expect(after).toEqual(await uncached());
    expect(Object.values(after).join('')).toContain('A changed thing.');
  });

  it('follows an edit of the document itself', async () => {
    writeFileSync(path.join(root, 'openapi.yaml'), openapi.replace('List things', 'List all things'));
    const after = await cached();
    expect(after).toEqual(await uncached());
  });

  it('treats an unreadable entry as a miss', async () => {
    for (const name of ['emit.json', 'load-openapi.yaml.json'])
      writeFileSync(path.join(cacheDir, name), '{ not json');
    expect(await cached()).toEqual(await uncached());
  });

  it('loads the AsyncAPI document again only when it changed', async () => {
    const golden = path.join(
      repositoryRoot,
      'generators/emitters/types/golden/asyncapi-messages/asyncapi.yaml',
    );
    copyFileSync(golden, path.join(root, 'asyncapi.yaml'));
    const both = resolveConfig({ openapi: 'openapi.yaml', asyncapi: 'asyncapi.yaml' }, root);
    const first = await loadSpecs(both, { cacheDir });
    const eventsEntry = path.join(cacheDir, 'load-asyncapi.yaml.json');
    const written = statSync(eventsEntry).mtimeMs;
    writeFileSync(path.join(root, 'openapi.yaml'), openapi.replace('List things', 'List the things'));
    const second = await loadSpecs(both, { cacheDir });
    expect(statSync(eventsEntry).mtimeMs).toBe(written);
    expect(second.input.asyncapi).toEqual(first.input.asyncapi);
    expect(second.input.openapi?.document).toEqual((await loadSpecs(both)).input.openapi?.document);
    writeFileSync(
      path.join(root, 'asyncapi.yaml'),
      readFileSync(golden, 'utf8').replace('Sensor events', 'Changed events'),
    );
    const third = await loadSpecs(both, { cacheDir });
    expect(statSync(eventsEntry).mtimeMs).not.toBe(written);
    expect(third.input.asyncapi).toEqual((await loadSpecs(both)).input.asyncapi);
  });
});
