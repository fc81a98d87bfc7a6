import { StructureKind, VariableDeclarationKind, type VariableStatementStructure } from 'ts-morph';
import type { ApiModel, Operation, Response } from '../../ir/model.js';
import { propertyKey } from '../../ir/names.js';
import type { Problem } from '../../problems.js';
import type { GeneratedFile } from '../generated-file.js';
import { printTypeScript } from '../print.js';
import { hasProperties, namedSchemas, references } from './named-schemas.js';
import { problemAt } from './problems.js';
import { renderSchema } from './render-schema.js';
import { SchemaReference, type SerializationSchema, serializationOf } from './serialization-schema.js';

export const schemasFile = 'server/schemas.ts';

export function isJsonMediaType(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}

/** The key of a response's serialisation schema in `responseSchemas`, or null when its body is not JSON. */
export function responseSchemaKey(operation: Operation, response: Response, model: ApiModel): string | null {
  if (!isJsonMediaType(response.contentType) || response.schema === null) return null;
  const schema = serializationOf(response.schema, (name) =>
    model.schemas.find((named) => named.name === name),
  );
  return schema instanceof SchemaReference ? schema.name : `${operation.id}.${response.status}`;
}

/**
 * Every JSON response schema, simplified for fast-json-stringify at generation time (see serialization-schema.ts),
 * each named schema once as a constant that the others share by reference. A recursive schema is left to plain
 * `JSON.stringify` (an empty schema), with a warning.
 */
export function emitSchemasFile(model: ApiModel, problems: Problem[]): GeneratedFile {
  const lookup = (name: string) => model.schemas.find((named) => named.name === name);
  const top = new Map<string, SerializationSchema>();
  for (const operation of model.operations) {
    for (const response of operation.responses) {
      const key = responseSchemaKey(operation, response, model);
      if (key !== null) top.set(key, serializationOf(response.schema, lookup));
    }
  }
  const { named, recursive } = namedSchemas([...top.values()], lookup);
  for (const name of [...recursive].sort()) {
    const origin = lookup(name)?.origin ?? '';
    problems.push(
      problemAt(origin, `${name} is recursive; the server serialises it without a schema`, 'warning'),
    );
  }
  // Scalars and maps of scalars read better in place than as constants.
  const isInlined = (name: string) => {
    const schema = named.get(name) ?? null;
    return recursive.has(name) || (references(schema).length === 0 && !hasProperties(schema));
  };
  const render = (schema: SerializationSchema): string =>
    renderSchema(schema, (name) => {
      if (recursive.has(name)) return '{}';
      return isInlined(name) ? render(named.get(name) ?? {}) : `schema${name}`;
    });
  const constants: VariableStatementStructure[] = [...named.keys()]
    .filter((name) => !isInlined(name))
    .map((name) => ({
      kind: StructureKind.VariableStatement,
      declarationKind: VariableDeclarationKind.Const,
      declarations: [{ name: `schema${name}`, initializer: render(named.get(name) ?? {}) }],
    }));
  const entries = [...top].map(([key, schema]) => `${propertyKey(key)}: ${render(schema)},`);
  return printTypeScript(model, schemasFile, {
    statements: [
      ...constants,
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        declarations: [{ name: 'responseSchemas', initializer: `{\n${entries.join('\n')}\n}` }],
        docs: [
          "JSON response schemas for Fastify's serialiser, by schema name (or `<operationId>.<status>` when inline).",
        ],
      },
    ],
  });
}
