import { isObject, type JsonObject } from '../../ir/json.js';
import type { JsonSchema } from '../../ir/model.js';

/** Keywords whose value is one subschema. */
const schemaKeywords = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'items',
  'unevaluatedItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
]);
/** Keywords whose value is an array of subschemas. */
const schemaArrayKeywords = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to subschemas. */
const schemaMapKeywords = new Set([
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
]);
/** Keywords that never change a verdict; Ajv would copy them into the standalone code as text. */
const annotationKeywords = new Set(['title', 'description', 'examples', '$comment']);

function isAnnotation(keyword: string): boolean {
  return annotationKeywords.has(keyword) || keyword.startsWith('x-');
}

function stripChild(keyword: string, value: unknown): unknown {
  if (schemaKeywords.has(keyword)) return stripSchema(value);
  if (schemaArrayKeywords.has(keyword) && Array.isArray(value)) return value.map(stripSchema);
  if (schemaMapKeywords.has(keyword) && isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, stripSchema(child)]));
  }
  return value;
}

function stripSchema(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([keyword]) => !isAnnotation(keyword))
      .map(([keyword, value]) => [keyword, stripChild(keyword, value)]),
  );
}

/**
 * The schema as Ajv should compile it: annotations removed (walking only subschema positions, so a property named
 * `title` or a `const` value is kept), and the root's `$id`/`$schema` dropped so every `#/components/schemas/...`
 * reference resolves against the one registry of named schemas. A boolean schema becomes its object form.
 */
export function compilableSchema(schema: JsonSchema): JsonObject {
  if (schema === true) return {};
  if (schema === false) return { not: {} };
  const { $id: _id, $schema: _dialect, ...rest } = schema;
  const stripped = stripSchema(rest);
  return isObject(stripped) ? stripped : {};
}
