import { describe, expect, it } from 'vitest';
import type { NamedSchema } from '../../ir/model.js';
import type { Problem } from '../../problems.js';
import { compilableSchema } from './annotations.js';
import { namedSchemaRef, standaloneModule, targetRef, validatorOptions } from './compile.js';

describe('compilableSchema', () => {
  it.each([
    [
      'annotations at schema positions only',
      {
        title: 'T',
        'x-note': 1,
        type: 'object',
        properties: { title: { type: 'string', description: 'd' } },
      },
      { type: 'object', properties: { title: { type: 'string' } } },
    ],
    [
      'data keeps its keys',
      { const: { description: 'kept' }, default: { title: 't' } },
      { const: { description: 'kept' }, default: { title: 't' } },
    ],
    [
      'subschema arrays and maps',
      { allOf: [{ examples: [1] }], $defs: { A: { $comment: 'c' } } },
      { allOf: [{}], $defs: { A: {} } },
    ],
    [
      'root identity dropped',
      { $id: 'urn:a', $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string' },
      { type: 'string' },
    ],
    ['true', true, {}],
    ['false', false, { not: {} }],
  ] as const)('%s', (_name, given, want) => {
    expect(compilableSchema(given)).toEqual(want);
  });
});

function named(name: string, schema: NamedSchema['schema']): NamedSchema {
  return { kind: 'schema', name, origin: `spec.yaml#/components/schemas/${name}`, description: null, schema };
}

describe('standaloneModule', () => {
  it('exports one function per entry, references resolved, with the require shim', () => {
    const schemas = [
      named('Id', { type: 'string' }),
      named('Thing', { properties: { id: { $ref: '#/components/schemas/Id' } } }),
    ];
    const problems: Problem[] = [];
    const entries = [
      { name: 'validateThing', schema: null, ref: namedSchemaRef('Thing'), origin: 'spec.yaml#/a' },
      {
        name: 'validateList',
        schema: { items: { $ref: '#/components/schemas/Thing' } },
        ref: targetRef('validateList'),
        origin: 'spec.yaml#/b',
      },
    ];
    const code = standaloneModule(schemas, entries, validatorOptions, problems);
    expect(problems).toEqual([]);
    expect(code).toContain('const require = createRequire(import.meta.url);');
    expect(code.match(/^export const \w+/gm)).toEqual([
      'export const validateThing',
      'export const validateList',
    ]);
  });

  it('reports what Ajv cannot compile at the origin of the schema', () => {
    const problems: Problem[] = [];
    const entries = [
      {
        name: 'validateBroken',
        schema: { $ref: '#/components/schemas/Missing' },
        ref: targetRef('validateBroken'),
        origin: 'spec.yaml#/paths/~1a/get',
      },
    ];
    standaloneModule([], entries, validatorOptions, problems);
    expect(problems).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: 'spec.yaml',
        pointer: '/paths/~1a/get',
        rule: 'validators/compile',
      }),
    ]);
  });
});
