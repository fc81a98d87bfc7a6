import { isObject, type JsonObject } from '../../ir/json.js';
import type { JsonSchema, NamedSchema } from '../../ir/model.js';

const schemaRefPrefix = '#/components/schemas/';

/** The named schema a `{ $ref: '#/components/schemas/<Name>' }` points to. */
export function refName(schema: unknown): string | null {
  if (!isObject(schema) || typeof schema.$ref !== 'string') return null;
  return schema.$ref.startsWith(schemaRefPrefix) ? schema.$ref.slice(schemaRefPrefix.length) : null;
}

export type SchemaLookup = (name: string) => NamedSchema | undefined;

function typeList(schema: JsonObject): string[] | null {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.map(String) : null;
}

function union(first: unknown, second: unknown): unknown[] {
  return [...new Set([...(Array.isArray(first) ? first : []), ...(Array.isArray(second) ? second : [])])];
}

/** Both schemas must hold: properties meet (as `allOf` of both, simplified later), lists and types combine. */
function merge(first: JsonObject, second: JsonObject): JsonObject {
  const merged: Record<string, unknown> = { ...first, ...second };
  const firstProperties = isObject(first.properties) ? first.properties : {};
  if (isObject(second.properties)) {
    const properties: Record<string, unknown> = { ...firstProperties };
    for (const [name, schema] of Object.entries(second.properties)) {
      properties[name] = name in properties ? { allOf: [properties[name], schema] } : schema;
    }
    merged.properties = properties;
  }
  if ('required' in first || 'required' in second) merged.required = union(first.required, second.required);
  const firstTypes = typeList(first);
  const secondTypes = typeList(second);
  if (firstTypes !== null && secondTypes !== null) {
    merged.type = firstTypes.filter(
      (type) => secondTypes.includes(type) || (type === 'integer' && secondTypes.includes('number')),
    );
  }
  if ('items' in first && 'items' in second) merged.items = { allOf: [first.items, second.items] };
  for (const keyword of ['additionalProperties', 'unevaluatedProperties']) {
    if (first[keyword] === false || second[keyword] === false) merged[keyword] = false;
    else if (isObject(first[keyword]) && isObject(second[keyword])) {
      merged[keyword] = { allOf: [first[keyword], second[keyword]] };
    }
  }
  return merged;
}

/**
 * One schema with its `allOf` members and a `$ref` beside other keywords merged in, so that a serialiser sees plain
 * `properties`. Only the top level is flattened; subschemas stay as they are. A reference cycle through `allOf` is
 * cut where it closes.
 */
export function flattenSchema(
  schema: JsonSchema | unknown,
  lookup: SchemaLookup,
  visiting = new Set<string>(),
): JsonObject {
  if (!isObject(schema)) return {};
  const { allOf, $ref, ...rest } = schema;
  const parts: JsonObject[] = [];
  const name = refName(schema);
  if (name !== null && !visiting.has(name)) {
    parts.push(flattenSchema(lookup(name)?.schema, lookup, new Set([...visiting, name])));
  }
  for (const member of Array.isArray(allOf) ? allOf : []) parts.push(flattenSchema(member, lookup, visiting));
  parts.push(rest);
  return parts.reduce(merge, {});
}
