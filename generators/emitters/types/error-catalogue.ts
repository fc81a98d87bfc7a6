import { StructureKind, VariableDeclarationKind, type VariableStatementStructure } from 'ts-morph';
import { isObject, type JsonObject } from '../../ir/json.js';
import type { ApiModel, NamedSchema } from '../../ir/model.js';
import { camelCase, stringLiteral } from '../../ir/names.js';

export interface ErrorCatalogue {
  envelope: NamedSchema;
  types: Array<{ name: string; status: number; description: string }>;
  codes: Array<{ name: string; status: number; type: string; description: string; role: string | null }>;
}

function schemaNamed(model: ApiModel, ref: unknown): NamedSchema | undefined {
  if (!isObject(ref) || typeof ref.$ref !== 'string') return undefined;
  const name = ref.$ref.slice(ref.$ref.lastIndexOf('/') + 1);
  return model.schemas.find((schema) => schema.name === name);
}

function members(schema: NamedSchema | undefined): JsonObject[] {
  const oneOf = isObject(schema?.schema) ? schema.schema.oneOf : undefined;
  return Array.isArray(oneOf) ? oneOf.filter(isObject) : [];
}

/**
 * The error model of a spec that marks its envelope with `x-error-envelope`: the envelope's `error.type` and
 * `error.code` schemas, written as `oneOf` of `const` with `x-status` (and `x-type`, `x-role` on codes).
 * Returns null for a spec without one; such specs get no catalogue.
 */
export function findErrorCatalogue(model: ApiModel): ErrorCatalogue | null {
  const envelope = model.schemas.find(
    (schema) => isObject(schema.schema) && schema.schema['x-error-envelope'] === true,
  );
  if (envelope === undefined || !isObject(envelope.schema)) return null;
  const errorProperties = isObject(envelope.schema.properties) ? envelope.schema.properties.error : undefined;
  const fields =
    isObject(errorProperties) && isObject(errorProperties.properties) ? errorProperties.properties : {};
  const types = members(schemaNamed(model, fields.type)).map((member) => ({
    name: String(member.const),
    status: Number(member['x-status']),
    description: String(member.description ?? ''),
  }));
  const codes = members(schemaNamed(model, fields.code)).map((member) => ({
    name: String(member.const),
    status: Number(member['x-status']),
    type: String(member['x-type']),
    description: String(member.description ?? ''),
    role: typeof member['x-role'] === 'string' ? member['x-role'] : null,
  }));
  return { envelope, types, codes };
}

function constant(name: string, initializer: string, description: string): VariableStatementStructure {
  return {
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name, initializer }],
    docs: [description],
  };
}

/** `errorTypes`, `errorCodes` and `errorRoles` constants, `as const` so the names stay literal types. */
export function errorCatalogueStatements(catalogue: ErrorCatalogue): VariableStatementStructure[] {
  const types = catalogue.types.map(
    (type) => `${type.name}: { status: ${type.status}, description: ${stringLiteral(type.description)} },`,
  );
  const codes = catalogue.codes.map(
    (code) =>
      `${code.name}: { status: ${code.status}, type: ${stringLiteral(code.type)}, description: ${stringLiteral(code.description)} },`,
  );
  const roles = catalogue.codes
    .filter((code) => code.role !== null)
    .map((code) => `${camelCase(code.role ?? '')}: ${stringLiteral(code.name)},`);
  return [
    constant('errorTypes', `{\n${types.join('\n')}\n} as const`, 'Every error type with its HTTP status.'),
    constant(
      'errorCodes',
      `{\n${codes.join('\n')}\n} as const`,
      'Every error code with its HTTP status and type.',
    ),
    constant(
      'errorRoles',
      `{\n${roles.join('\n')}\n} as const`,
      'The code that plays each part generated code needs.',
    ),
  ];
}
