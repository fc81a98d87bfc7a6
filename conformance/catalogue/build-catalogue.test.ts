import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { resolveJsonPointer } from '../../runtime/json-pointer.js';
import { buildCatalogue, inferredId, surfaceOf } from './build-catalogue.js';
import { inProfile, type Requirement } from './requirement.js';

const specDirectory = path.resolve(import.meta.dirname, '../../spec');
const scratchRoot = path.resolve(import.meta.dirname, '../../.tmp');

interface TraceabilityStatement {
  id: string;
  quote: string;
  pointers: string[];
  source?: string;
}

const traceability = YAML.parse(readFileSync(path.join(specDirectory, 'traceability.yaml'), 'utf8')) as {
  statements: TraceabilityStatement[];
};
const specFiles = [
  'openapi.yaml',
  'asyncapi.yaml',
  ...readdirSync(path.join(specDirectory, 'schemas')).map((name) => `schemas/${name}`),
];
const parsedFiles = new Map(
  specFiles.map((file) => [
    file,
    YAML.parse(readFileSync(path.join(specDirectory, file), 'utf8')) as unknown,
  ]),
);

const ruleSets = ['x-ingest-rules', 'x-connection-rules', 'x-webhook-delivery'];

/** Counts x-inferred elements outside rule sets by a walk of its own, so the catalogue is not checked against itself. */
function countInferred(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countInferred(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  const own = typeof (value as Record<string, unknown>)['x-inferred'] === 'string' ? 1 : 0;
  return Object.entries(value)
    .filter(([key]) => !ruleSets.includes(key))
    .reduce((sum: number, [, child]) => sum + countInferred(child), own);
}

const requirements = buildCatalogue(specDirectory);
const documented = requirements.filter((requirement) => requirement.source !== 'inferred');
const rules = requirements.filter((requirement) => requirement.id.startsWith('RULE-'));
const inferred = requirements.filter(
  (requirement) => requirement.source === 'inferred' && !requirement.id.startsWith('RULE-'),
);

describe('the requirement catalogue of the spec', () => {
  it('turns every traceability statement into one requirement with its quote and pointers', () => {
    const statements = documented.filter((requirement) => !requirement.id.startsWith('RULE-'));
    expect(statements.map((requirement) => requirement.id)).toEqual(
      traceability.statements.map((statement) => statement.id),
    );
    for (const statement of traceability.statements) {
      const requirement = documented.find((candidate) => candidate.id === statement.id);
      expect(requirement?.statement).toBe(statement.quote);
      expect(requirement?.pointers).toEqual(statement.pointers);
    }
  });

  it('marks the erratum as erratum and every other statement as documented', () => {
    const errata = documented.filter((requirement) => requirement.source === 'erratum');
    expect(errata.map((requirement) => requirement.id)).toEqual(
      traceability.statements.filter((statement) => statement.source === 'erratum').map((each) => each.id),
    );
    expect(errata.map((requirement) => requirement.id)).toEqual(['EVT-TYPE-DEVICE-ONLINE']);
    expect(
      documented.filter((requirement) => requirement.source === 'documented' && !rules.includes(requirement)),
    ).toHaveLength(traceability.statements.length - 1);
  });

  it('yields one inferred requirement per x-inferred element, carrying its reason', () => {
    const expected = [...parsedFiles.values()].reduce(
      (sum: number, document) => sum + countInferred(document),
      0,
    );
    expect(expected).toBeGreaterThan(100);
    expect(inferred).toHaveLength(expected);
    for (const requirement of inferred) {
      expect(requirement.pointers).toHaveLength(1);
      const [file, pointer] = (requirement.pointers[0] ?? '').split('#') as [string, string];
      const element = resolveJsonPointer(parsedFiles.get(file), pointer) as
        | Record<string, unknown>
        | undefined;
      expect(element?.['x-inferred'], requirement.id).toBe(requirement.statement);
    }
  });

  it('gives every requirement a unique id, inferred ones in capitals after INF-, rules after RULE-', () => {
    const ids = requirements.map((requirement) => requirement.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const requirement of inferred) expect(requirement.id).toMatch(/^INF-[A-Z0-9_]+(-[A-Z0-9_]+)*$/);
    for (const requirement of rules) expect(requirement.id).toMatch(/^RULE-[A-Z0-9_]+(-[A-Z0-9_]+)*$/);
  });

  it('gives the same ids on every build', () => {
    expect(buildCatalogue(specDirectory).map((requirement) => requirement.id)).toEqual(
      requirements.map((requirement) => requirement.id),
    );
  });

  it('names enumeration members by their const, so inserting a member leaves the others their ids', () => {
    const ids = new Set(requirements.map((requirement) => requirement.id));
    expect(ids).toContain('INF-SCHEMAS-ERROR-CODE-ONEOF-PARAMETER_INVALID');
    expect(ids).toContain('INF-OPENAPI-X-LIMITS');
  });

  it('puts every requirement on a surface', () => {
    const surfaces = new Set(requirements.map((requirement) => requirement.surface));
    expect([...surfaces].sort()).toEqual(['mqtt', 'oauth', 'rest', 'webhooks', 'websocket']);
    expect(requirements.find((requirement) => requirement.id === 'AUTH-OAUTH-EXCHANGE')?.surface).toBe(
      'oauth',
    );
    expect(requirements.find((requirement) => requirement.id === 'EVT-SIGNATURE-HMAC')?.surface).toBe(
      'webhooks',
    );
  });
});

describe('inferredId and surfaceOf', () => {
  it('spell the location in capitals, slashes of keys as dashes', () => {
    expect(inferredId('openapi.yaml', '/x-limits')).toBe('INF-OPENAPI-X-LIMITS');
    expect(inferredId('schemas/ids.yaml', '/$defs/StreamId')).toBe('INF-SCHEMAS-IDS-DEFS-STREAMID');
    expect(inferredId('openapi.yaml', '/paths/~1streams~1{streamId}/get')).toBe(
      'INF-OPENAPI-PATHS-STREAMS-STREAMID-GET',
    );
  });

  it('tell the surface from the pointers', () => {
    expect(surfaceOf(['asyncapi.yaml#/channels/deviceTelemetry'])).toBe('mqtt');
    expect(surfaceOf(['asyncapi.yaml#/channels/liveFeed'])).toBe('websocket');
    expect(surfaceOf(['openapi.yaml#/x-webhook-delivery/method'])).toBe('webhooks');
    expect(surfaceOf(['openapi.yaml#/paths/~1oauth~1token/post'])).toBe('oauth');
    expect(surfaceOf(['openapi.yaml#/paths/~1streams/post'])).toBe('rest');
  });
});

describe('buildCatalogue on a spec of its own', () => {
  const directories: string[] = [];
  afterAll(async () => {
    for (const directory of directories) await rm(directory, { recursive: true, force: true });
  });

  async function specWith(errorCodeMembers: string[]): Promise<Requirement[]> {
    await mkdir(scratchRoot, { recursive: true });
    const directory = await mkdtemp(path.join(scratchRoot, 'catalogue-'));
    directories.push(directory);
    await mkdir(path.join(directory, 'schemas'));
    const files: Record<string, unknown> = {
      'traceability.yaml': {
        statements: [
          { id: 'DOC-ONE', kind: 'behaviour', quote: 'One.', pointers: ['openapi.yaml#/info'] },
          {
            id: 'DOC-ERRATUM',
            kind: 'enum',
            quote: 'Two.',
            pointers: ['schemas/code.yaml#/oneOf/0'],
            source: 'erratum',
          },
        ],
      },
      'openapi.yaml': { info: { title: 'x' }, 'x-limits': { 'x-inferred': 'Because.', max: 3 } },
      'asyncapi.yaml': { channels: { liveFeed: { 'x-inferred': 'Live.' } } },
      'schemas/code.yaml': {
        oneOf: errorCodeMembers.map((name) => ({ const: name, 'x-inferred': `Code ${name}.` })),
        items: [{ 'x-inferred': 'By index.' }],
      },
    };
    for (const [file, content] of Object.entries(files))
      await writeFile(path.join(directory, file), YAML.stringify(content));
    return buildCatalogue(directory);
  }

  it('keeps documented, erratum and inferred apart, with pointers to the element', async () => {
    const built = await specWith(['alpha', 'beta']);
    expect(built.map((requirement) => [requirement.id, requirement.source, requirement.surface])).toEqual([
      ['DOC-ONE', 'documented', 'rest'],
      ['DOC-ERRATUM', 'erratum', 'rest'],
      ['INF-ASYNCAPI-CHANNELS-LIVEFEED', 'inferred', 'websocket'],
      ['INF-OPENAPI-X-LIMITS', 'inferred', 'rest'],
      ['INF-SCHEMAS-CODE-ONEOF-ALPHA', 'inferred', 'rest'],
      ['INF-SCHEMAS-CODE-ONEOF-BETA', 'inferred', 'rest'],
      ['INF-SCHEMAS-CODE-ITEMS-0', 'inferred', 'rest'],
    ]);
    expect(built.find((requirement) => requirement.id === 'INF-SCHEMAS-CODE-ONEOF-BETA')).toMatchObject({
      statement: 'Code beta.',
      pointers: ['schemas/code.yaml#/oneOf/1'],
    });
  });

  it('keeps an id when a member is inserted before it', async () => {
    const before = await specWith(['alpha', 'beta']);
    const after = await specWith(['aardvark', 'alpha', 'beta']);
    const idOf = (built: Requirement[], statement: string) =>
      built.find((requirement) => requirement.statement === statement)?.id;
    expect(idOf(after, 'Code beta.')).toBe(idOf(before, 'Code beta.'));
    expect(idOf(after, 'Code alpha.')).toBe(idOf(before, 'Code alpha.'));
  });
});

describe('inProfile', () => {
  const of = (source: Requirement['source']): Requirement => ({
    id: 'X',
    statement: 'x',
    source,
    pointers: [],
    surface: 'rest',
  });

  it('judges documented and erratum requirements in both profiles, inferred ones only in full', () => {
    expect(inProfile(of('documented'), 'documented')).toBe(true);
    expect(inProfile(of('erratum'), 'documented')).toBe(true);
    expect(inProfile(of('inferred'), 'documented')).toBe(false);
    for (const source of ['documented', 'erratum', 'inferred'] as const)
      expect(inProfile(of(source), 'full')).toBe(true);
  });
});
