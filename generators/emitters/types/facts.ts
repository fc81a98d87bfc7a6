import { StructureKind, VariableDeclarationKind, type VariableStatementStructure } from 'ts-morph';
import { isObject } from '../../ir/json.js';
import type { ApiModel, NamedSchema } from '../../ir/model.js';
import { camelCase, propertyKey, stringLiteral } from '../../ir/names.js';

/** Reasons and errata document a fact; they are not facts code acts on. */
const documentationKeys = new Set(['x-inferred', 'x-erratum']);

function factKey(key: string): string {
  return key.startsWith('x-') ? camelCase(key.slice(2)) : key;
}

/** A JSON value as a TypeScript literal (single quotes, identifier keys bare), x-inferred and x-erratum left out. */
export function literal(value: unknown, indent = ''): string {
  if (Array.isArray(value)) return `[${value.map((item) => literal(item, indent)).join(', ')}]`;
  if (isObject(value)) {
    const inner = `${indent}  `;
    const entries = Object.entries(value)
      .filter(([key]) => !documentationKeys.has(key))
      .map(([key, child]) => `${inner}${propertyKey(factKey(key))}: ${literal(child, inner)},`);
    return entries.length === 0 ? '{}' : `{\n${entries.join('\n')}\n${indent}}`;
  }
  return typeof value === 'string' ? stringLiteral(value) : JSON.stringify(value);
}

function extensionsOfSchema(schema: NamedSchema): Record<string, unknown> {
  if (!isObject(schema.schema)) return {};
  return Object.fromEntries(
    Object.entries(schema.schema).filter(([key]) => key.startsWith('x-') && !documentationKeys.has(key)),
  );
}

/** `oneOf` members that are `const` values, each with its description and x- facts: `{ low: { sampleRateHz: 100 } }`. */
function memberFacts(schema: NamedSchema): Record<string, unknown> | null {
  const oneOf = isObject(schema.schema) ? schema.schema.oneOf : undefined;
  if (
    !Array.isArray(oneOf) ||
    oneOf.length === 0 ||
    !oneOf.every((member) => isObject(member) && 'const' in member)
  )
    return null;
  return Object.fromEntries(
    oneOf.filter(isObject).map((member) => {
      const { const: value, ...facts } = member;
      return [String(value), facts];
    }),
  );
}

/** `pattern` of every named string schema and of each direct property (`CreatedStream.streamKey`). */
function schemaPatterns(model: ApiModel): Record<string, string> {
  const patterns: Record<string, string> = {};
  for (const named of model.schemas) {
    if (!isObject(named.schema)) continue;
    if (typeof named.schema.pattern === 'string') patterns[named.name] = named.schema.pattern;
    const properties = isObject(named.schema.properties) ? named.schema.properties : {};
    for (const [property, schema] of Object.entries(properties)) {
      if (isObject(schema) && typeof schema.pattern === 'string')
        patterns[`${named.name}.${property}`] = schema.pattern;
    }
  }
  return patterns;
}

/** `maxItems` of each named array schema and of each direct array property (`Record.samples`). */
function schemaMaxItems(model: ApiModel): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const named of model.schemas) {
    if (!isObject(named.schema)) continue;
    if (typeof named.schema.maxItems === 'number') limits[named.name] = named.schema.maxItems;
    const properties = isObject(named.schema.properties) ? named.schema.properties : {};
    for (const [property, schema] of Object.entries(properties)) {
      if (isObject(schema) && typeof schema.maxItems === 'number')
        limits[`${named.name}.${property}`] = schema.maxItems;
    }
  }
  return limits;
}

/** `default` of each named schema (`Metadata`) and of its direct properties (`CreateStreamRequest.quality`). */
function schemaDefaults(model: ApiModel): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const named of model.schemas) {
    if (isObject(named.schema) && 'default' in named.schema) defaults[named.name] = named.schema.default;
    const properties =
      isObject(named.schema) && isObject(named.schema.properties) ? named.schema.properties : {};
    for (const [property, schema] of Object.entries(properties)) {
      if (isObject(schema) && 'default' in schema) defaults[`${named.name}.${property}`] = schema.default;
    }
  }
  return defaults;
}

/** `default` of each operation parameter (`listStreams.limit`). */
function parameterDefaults(model: ApiModel): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const operation of model.operations) {
    for (const parameter of operation.parameters) {
      if (isObject(parameter.schema) && 'default' in parameter.schema)
        defaults[`${operation.id}.${parameter.name}`] = parameter.schema.default;
    }
  }
  return defaults;
}

function constant(name: string, value: unknown, description: string): VariableStatementStructure {
  return {
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name, initializer: `${literal(value)} as const` }],
    docs: [description],
  };
}

/**
 * The spec's facts that are not types, as constants: top-level policies (`x-webhook-delivery` → `apiPolicies.webhookDelivery`),
 * security scheme and channel extensions, each fact-carrying enumeration's members, and other schema-level x- facts
 * (state machines). Hand-written code imports these instead of restating a number.
 */
export function factStatements(model: ApiModel): VariableStatementStructure[] {
  const statements = [
    constant('apiPolicies', model.extensions, 'Top-level x- extensions of the OpenAPI document.'),
    constant(
      'schemaPatterns',
      schemaPatterns(model),
      'The pattern of each named schema and of its direct properties.',
    ),
    constant(
      'schemaMaxItems',
      schemaMaxItems(model),
      'The maxItems of each named array schema and of its direct array properties.',
    ),
    constant(
      'schemaDefaults',
      schemaDefaults(model),
      'The default of each named schema and of its direct properties.',
    ),
    constant('parameterDefaults', parameterDefaults(model), 'The default of each operation parameter.'),
    constant(
      'securitySchemeFacts',
      Object.fromEntries(
        model.securitySchemes.map((scheme) => [scheme.name, { ...scheme.extensions, scopes: scheme.scopes }]),
      ),
      'Each security scheme: its x- extensions and OAuth scopes.',
    ),
    constant(
      'channelFacts',
      Object.fromEntries(
        model.channels.map((channel) => [channel.id, { address: channel.address, ...channel.extensions }]),
      ),
      'Each channel: its address and x- extensions.',
    ),
  ];
  for (const schema of model.schemas) {
    const members = memberFacts(schema);
    if (members !== null)
      statements.push(
        constant(`${camelCase(schema.name)}Members`, members, `Members of ${schema.name} with their facts.`),
      );
    const facts = extensionsOfSchema(schema);
    if (Object.keys(facts).length > 0)
      statements.push(constant(`${camelCase(schema.name)}Facts`, facts, `x- facts of ${schema.name}.`));
  }
  return statements;
}
