import { isObject, type JsonObject } from '../../ir/json.js';
import { flattenSchema, refName, type SchemaLookup } from './flatten-schema.js';

/** A named schema used in place; rendered as the constant holding its serialisation schema. */
export class SchemaReference {
  constructor(readonly name: string) {}
}

export type SerializationSchema =
  | string
  | number
  | boolean
  | null
  | SchemaReference
  | SerializationSchema[]
  | { [keyword: string]: SerializationSchema };

// Keywords that change what a serialiser writes; the others (pattern, format, bounds, annotations) do not.
const structural = new Set(['type', 'properties', 'required', 'items', 'allOf', 'anyOf', 'oneOf']);
const openness = new Set(['additionalProperties', 'unevaluatedProperties']);

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

function typesOf(schema: JsonObject): string[] | null {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.map(String);
  if (schema.const !== undefined) return [jsonType(schema.const)];
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map(jsonType))];
  if (isObject(schema.properties) || Array.isArray(schema.required)) return ['object'];
  return schema.items === undefined ? null : ['array'];
}

/** A `const` or `enum` value of the spec, which is plain JSON. */
function jsonValue(value: unknown): SerializationSchema {
  if (Array.isArray(value)) return value.map(jsonValue);
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, jsonValue(item)]));
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
}

function isScalar(schema: JsonObject): boolean {
  const types = typesOf(schema);
  return types !== null && !types.includes('object') && !types.includes('array');
}

/** A subschema: a reference to a named schema when it adds nothing a serialiser sees, otherwise inlined. */
export function serializationOf(schema: unknown, lookup: SchemaLookup): SerializationSchema {
  const name = refName(schema);
  const addsStructure =
    isObject(schema) && Object.keys(schema).some((key) => structural.has(key) || openness.has(key));
  if (name !== null && !addsStructure) return new SchemaReference(name);
  return serializationSchema(schema, lookup);
}

function objectKeywords(schema: JsonObject, lookup: SchemaLookup): Record<string, SerializationSchema> {
  const output: Record<string, SerializationSchema> = {};
  if (isObject(schema.properties)) {
    output.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [name, serializationOf(property, lookup)]),
    );
  }
  if (Array.isArray(schema.required)) output.required = schema.required.map(String);
  const extra = [schema.additionalProperties, schema.unevaluatedProperties].find(isObject);
  const closed = schema.additionalProperties === false || schema.unevaluatedProperties === false;
  // JSON Schema lets unlisted properties through unless it says otherwise; fast-json-stringify drops them unless told.
  if (extra !== undefined) output.additionalProperties = serializationOf(extra, lookup);
  else if (!closed) output.additionalProperties = true;
  return output;
}

/**
 * What fast-json-stringify needs of a schema: `allOf` merged, types (inferred from `const`/`enum` where absent),
 * properties, required, items, and whether unlisted properties pass. `oneOf`/`anyOf` of scalars become a type
 * union; of objects, an `anyOf` whose members keep `const`/`enum` so that the serialiser can tell them apart.
 */
export function serializationSchema(
  schema: unknown,
  lookup: SchemaLookup,
  isAlternative = false,
): SerializationSchema {
  const flat = flattenSchema(schema, lookup);
  const alternatives = [flat.anyOf, flat.oneOf].find(Array.isArray);
  const { anyOf: _anyOf, oneOf: _oneOf, ...common } = flat;
  let types = typesOf(flat);
  if (alternatives !== undefined) {
    const members = alternatives.map((member) => flattenSchema(member, lookup));
    if (!members.every(isScalar)) {
      return {
        anyOf: alternatives.map((member) => serializationSchema({ allOf: [common, member] }, lookup, true)),
      };
    }
    const memberTypes = [...new Set(members.flatMap((member) => typesOf(member) ?? []))];
    types = types === null ? memberTypes : types.filter((type) => memberTypes.includes(type));
  }
  const output: Record<string, SerializationSchema> = {};
  if (types !== null) output.type = types.length === 1 ? (types[0] ?? 'null') : types;
  if (isAlternative && flat.const !== undefined) output.const = jsonValue(flat.const);
  if (isAlternative && Array.isArray(flat.enum)) output.enum = flat.enum.map(jsonValue);
  if (types?.includes('object')) Object.assign(output, objectKeywords(flat, lookup));
  if (types?.includes('array') && flat.items !== undefined)
    output.items = serializationOf(flat.items, lookup);
  return output;
}
