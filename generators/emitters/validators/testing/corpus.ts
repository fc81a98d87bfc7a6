import { isObject, type JsonObject } from '../../../ir/json.js';
import type { ApiModel, JsonSchema } from '../../../ir/model.js';

export interface Payload {
  label: string;
  value: unknown;
}

type Resolve = (schema: unknown) => JsonObject;

/** Follows `#/components/schemas/<Name>` references to the named schema; anything else as it is. */
export function resolver(model: ApiModel): Resolve {
  const named = new Map<string, JsonSchema>(model.schemas.map((schema) => [schema.name, schema.schema]));
  const resolve: Resolve = (schema) => {
    if (!isObject(schema)) return {};
    if (typeof schema.$ref !== 'string') return schema;
    return resolve(named.get(schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1)));
  };
  return resolve;
}

/** The schema and the members of its `allOf`, where object schemas in this spec keep their properties. */
function parts(schema: JsonObject, resolve: Resolve): JsonObject[] {
  const members = Array.isArray(schema.allOf) ? schema.allOf.map(resolve) : [];
  return [schema, ...members.flatMap((member) => parts(member, resolve))];
}

/** A value of another JSON type than the schema's first; none for a schema that names no type. */
function wrongType(schema: JsonObject): Payload[] {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const replacements: Record<string, unknown> = {
    string: 42,
    integer: 'seven',
    number: 'seven',
    boolean: 'yes',
  };
  if (typeof type !== 'string') return [];
  return [{ label: 'wrong type', value: replacements[type] ?? (type === 'array' ? {} : []) }];
}

/** One value per constraint present, each breaking that constraint once, plus a value of the wrong type. */
function brokenValues(schema: JsonObject): Payload[] {
  const number = (keyword: string) => (typeof schema[keyword] === 'number' ? schema[keyword] : null);
  const broken = wrongType(schema);
  const maxLength = number('maxLength');
  if (maxLength !== null) broken.push({ label: 'maxLength', value: 'x'.repeat(maxLength + 1) });
  const maxProperties = number('maxProperties');
  if (maxProperties !== null) {
    const keys = Array.from({ length: maxProperties + 1 }, (_, index) => [`key${index}`, 'value']);
    broken.push({ label: 'maxProperties', value: Object.fromEntries(keys) });
  }
  if (typeof schema.pattern === 'string') broken.push({ label: 'pattern', value: ' no match ' });
  if (Array.isArray(schema.enum)) broken.push({ label: 'enum', value: 'not-a-member' });
  if ('const' in schema) broken.push({ label: 'const', value: 'not-the-constant' });
  const minimum = number('minimum');
  if (minimum !== null) broken.push({ label: 'minimum', value: minimum - 1 });
  const maximum = number('maximum');
  if (maximum !== null) broken.push({ label: 'maximum', value: maximum + 1 });
  return broken;
}

/**
 * Valid payloads (the schema's `examples`) and invalid ones derived from the first example: each required property
 * dropped once, each property's constraints broken once, an unknown property where the object is closed.
 */
export function corpus(schema: JsonSchema, resolve: Resolve): { valid: Payload[]; invalid: Payload[] } {
  const root = resolve(schema);
  const examples = Array.isArray(root.examples) ? root.examples : [];
  const valid = examples.map((example, index) => ({ label: `example ${index}`, value: example }));
  const invalid = brokenValues(root).map(({ label, value }) => ({ label: `root ${label}`, value }));
  const base: unknown = examples[0];
  if (!isObject(base)) return { valid, invalid };
  for (const part of parts(root, resolve)) {
    for (const name of Array.isArray(part.required) ? part.required.map(String) : []) {
      invalid.push({
        label: `without ${name}`,
        value: Object.fromEntries(Object.entries(base).filter(([key]) => key !== name)),
      });
    }
    for (const [name, property] of Object.entries(isObject(part.properties) ? part.properties : {})) {
      for (const { label, value } of brokenValues(resolve(property))) {
        invalid.push({ label: `${name} ${label}`, value: { ...base, [name]: value } });
      }
    }
    if (part.additionalProperties === false || part.unevaluatedProperties === false) {
      invalid.push({ label: 'unknown property', value: { ...base, unexpectedProperty: true } });
    }
  }
  return { valid, invalid };
}
