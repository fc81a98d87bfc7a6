// Each telemetry/* rule must fire on a copy of the spec broken in its one way, and stay silent on the intact copy.
// Runs on the small fixture always and on the real spec/ once it exists.
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { isFailing, lintAsyncApi } from '../generators/load/lint-asyncapi.js';
import { lintOpenApi } from '../generators/load/lint-openapi.js';
import { loadRedoclyConfig } from '../generators/load/redocly.js';

type JsonObject = Record<string, unknown>;

/** The YAML files of one spec copy, parsed, keyed by path relative to the copy (posix separators). */
interface SpecCopy {
  directory: string;
  documents: Map<string, unknown>;
  changed: Set<string>;
}

type Mutation = (copy: SpecCopy) => void;

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
const configPath = join(repositoryRoot, 'redocly.yaml');
const OPENAPI_FILE = 'openapi.yaml';
const ASYNCAPI_FILE = 'asyncapi.yaml';
const ID_NAME = /^id$|Id$/;
// Values of these keywords are data, not schemas: never search inside them.
const DATA_KEYWORDS = new Set(['example', 'examples', 'const', 'default', 'enum']);

const specSources: [string, string][] = [['fixture', join(repositoryRoot, 'tests/fixtures/lint')]];
if (existsSync(join(repositoryRoot, 'spec', OPENAPI_FILE)))
  specSources.push(['spec', join(repositoryRoot, 'spec')]);

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every object in a document (outside data keywords), depth first, in document order. */
function* objectsIn(node: unknown): Generator<JsonObject> {
  if (Array.isArray(node)) {
    for (const item of node) yield* objectsIn(item);
  } else if (isObject(node)) {
    yield node;
    for (const [key, value] of Object.entries(node)) {
      if (!DATA_KEYWORDS.has(key)) yield* objectsIn(value);
    }
  }
}

function document(copy: SpecCopy, file: string): JsonObject {
  const parsed = copy.documents.get(file);
  if (!isObject(parsed)) throw new Error(`${file} is not in the copy`);
  return parsed;
}

/** Files the OpenAPI document reaches through $refs: only those are linted by Redocly. */
function reachableFiles(copy: SpecCopy, start: string): string[] {
  const reached = [start];
  for (let index = 0; index < reached.length; index++) {
    const file = reached[index] ?? start;
    for (const node of objectsIn(copy.documents.get(file))) {
      const target = typeof node.$ref === 'string' ? node.$ref.split('#')[0] : '';
      if (!target || target.includes(':')) continue;
      const targetFile = posix.normalize(posix.join(posix.dirname(file), target));
      if (!reached.includes(targetFile) && copy.documents.has(targetFile)) reached.push(targetFile);
    }
  }
  return reached;
}

/** Follows a $ref written in `file` to the object it names. */
function resolveReference(copy: SpecCopy, file: string, reference: string): { file: string; node: unknown } {
  const [target = '', pointer = ''] = reference.split('#');
  const targetFile = target ? posix.normalize(posix.join(posix.dirname(file), target)) : file;
  let node: unknown = copy.documents.get(targetFile);
  for (const segment of pointer.split('/').filter(Boolean)) {
    node = isObject(node) ? node[segment.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
  }
  return { file: targetFile, node };
}

function findFirst(
  copy: SpecCopy,
  predicate: (node: JsonObject) => boolean,
): { file: string; node: JsonObject } {
  for (const file of reachableFiles(copy, OPENAPI_FILE)) {
    for (const node of objectsIn(copy.documents.get(file))) {
      if (predicate(node)) return { file, node };
    }
  }
  throw new Error('the spec has nothing this mutation can break');
}

function setInferredReason(reason: string): Mutation {
  return (copy) => {
    const found = findFirst(copy, (node) => typeof node['x-inferred'] === 'string');
    found.node['x-inferred'] = reason;
    copy.changed.add(found.file);
  };
}

function replaceErrorResponse(response: JsonObject): Mutation {
  return (copy) => {
    const found = findFirst(
      copy,
      (node) =>
        isObject(node.responses) &&
        node['x-error-format'] === undefined &&
        Object.keys(node.responses).some((status) => status.startsWith('4')),
    );
    const responses = found.node.responses as JsonObject;
    const status = Object.keys(responses).find((key) => key.startsWith('4')) ?? '400';
    responses[status] = response;
    copy.changed.add(found.file);
  };
}

/** Sets (or, with undefined, deletes) the pattern of the first id property, where the pattern is written. */
function setIdPattern(pattern: string | undefined): Mutation {
  return (copy) => {
    const found = findFirst(
      copy,
      (node) => isObject(node.properties) && Object.keys(node.properties).some((name) => ID_NAME.test(name)),
    );
    const properties = found.node.properties as JsonObject;
    const name = Object.keys(properties).find((key) => ID_NAME.test(key)) ?? 'id';
    let target = { file: found.file, node: properties[name] };
    while (
      isObject(target.node) &&
      typeof target.node.$ref === 'string' &&
      target.node.pattern === undefined
    ) {
      target = resolveReference(copy, target.file, target.node.$ref);
    }
    if (!isObject(target.node)) throw new Error(`id property ${name} does not resolve`);
    if (pattern === undefined) delete target.node.pattern;
    else target.node.pattern = pattern;
    copy.changed.add(target.file);
  };
}

const wrongTypeExample: Mutation = (copy) => {
  const found = findFirst(
    copy,
    (node) =>
      (typeof node.type === 'string' || Array.isArray(node.type)) &&
      Array.isArray(node.examples) &&
      node.examples.length > 0,
  );
  const allowedTypes = [found.node.type].flat().map(String);
  const candidates: [unknown, string[]][] = [
    [12345, ['integer', 'number']],
    ['not an example', ['string']],
    [true, ['boolean']],
    [[], ['array']],
    [{}, ['object']],
  ];
  const [invalidValue] =
    candidates.find(([, types]) => !types.some((type) => allowedTypes.includes(type))) ?? [];
  (found.node.examples as unknown[])[0] = invalidValue;
  copy.changed.add(found.file);
};

const openapiCases: [string, { mutate: Mutation; expectRule: string }][] = [
  ['inferred-reason (emptied)', { mutate: setInferredReason(''), expectRule: 'telemetry/inferred-reason' }],
  [
    'inferred-reason (placeholder only)',
    { mutate: setInferredReason('TODO: inferred, TBD'), expectRule: 'telemetry/inferred-reason' },
  ],
  [
    'error-envelope (4xx schema replaced)',
    {
      mutate: replaceErrorResponse({
        description: 'Broken on purpose.',
        content: { 'application/json': { schema: { type: 'object' } } },
      }),
      expectRule: 'telemetry/error-envelope',
    },
  ],
  [
    'error-envelope (4xx without content)',
    {
      mutate: replaceErrorResponse({ description: 'Broken on purpose.' }),
      expectRule: 'telemetry/error-envelope',
    },
  ],
  [
    'id-prefix-pattern (pattern deleted)',
    { mutate: setIdPattern(undefined), expectRule: 'telemetry/id-prefix-pattern' },
  ],
  [
    'id-prefix-pattern (uppercase prefix)',
    { mutate: setIdPattern('^STM_[A-Za-z0-9]+$'), expectRule: 'telemetry/id-prefix-pattern' },
  ],
  ['examples-validate (wrong type)', { mutate: wrongTypeExample, expectRule: 'telemetry/examples-validate' }],
];

let temporaryRoot = '';

beforeAll(async () => {
  temporaryRoot = await mkdtemp(join(tmpdir(), 'lint-spec-'));
});

afterAll(async () => {
  await rm(temporaryRoot, { recursive: true, force: true });
});

/** Copies the spec documents and schemas (not spec/rules) and parses every YAML file. */
async function copySpec(sourceDirectory: string, name: string): Promise<SpecCopy> {
  const directory = join(temporaryRoot, name);
  await cp(sourceDirectory, directory, {
    recursive: true,
    filter: (source) => relative(sourceDirectory, source).split(sep)[0] !== 'rules',
  });
  const entries = await readdir(directory, { recursive: true });
  const documents = new Map<string, unknown>();
  for (const entry of entries.filter((file) => /\.ya?ml$/.test(file))) {
    documents.set(entry.split(sep).join('/'), parse(await readFile(join(directory, entry), 'utf8')));
  }
  return { directory, documents, changed: new Set() };
}

async function saveChanges(copy: SpecCopy): Promise<void> {
  for (const file of copy.changed) {
    await writeFile(join(copy.directory, file), stringify(copy.documents.get(file)));
  }
}

async function telemetryRuleIds(copy: SpecCopy): Promise<string[]> {
  const problems = await lintOpenApi(join(copy.directory, OPENAPI_FILE), await loadRedoclyConfig(configPath));
  return problems.map((problem) => problem.ruleId).filter((ruleId) => ruleId.startsWith('telemetry/'));
}

describe.each(specSources)('lint:spec on a copy of %s', (sourceName, sourceDirectory) => {
  it('reports no telemetry/* problem on the intact copy', async () => {
    const copy = await copySpec(sourceDirectory, `${sourceName}-intact`);
    expect(await telemetryRuleIds(copy)).toEqual([]);
  });

  it.each(openapiCases)('%s', async (caseName, { mutate, expectRule }) => {
    const copy = await copySpec(sourceDirectory, `${sourceName}-${caseName.replace(/\W+/g, '-')}`);
    mutate(copy);
    await saveChanges(copy);
    expect(await telemetryRuleIds(copy)).toContain(expectRule);
  });

  it('validates the intact AsyncAPI copy without errors or warnings', async () => {
    const copy = await copySpec(sourceDirectory, `${sourceName}-asyncapi-intact`);
    const problems = await lintAsyncApi(join(copy.directory, ASYNCAPI_FILE));
    expect(problems.filter(isFailing)).toEqual([]);
  });

  it('reports an error for an AsyncAPI operation on a missing channel', async () => {
    const copy = await copySpec(sourceDirectory, `${sourceName}-asyncapi-broken`);
    const operations = document(copy, ASYNCAPI_FILE).operations;
    const operation = isObject(operations) ? Object.values(operations).find(isObject) : undefined;
    if (operation === undefined) throw new Error('the AsyncAPI document has no operation to break');
    operation.channel = { $ref: '#/channels/noSuchChannel' };
    copy.changed.add(ASYNCAPI_FILE);
    await saveChanges(copy);
    const problems = await lintAsyncApi(join(copy.directory, ASYNCAPI_FILE));
    expect(problems.filter((problem) => problem.severity === 'error').length).toBeGreaterThan(0);
  });
});
