import { isObject, type JsonObject } from './json.js';
import type { JsonSchema } from './model.js';

/**
 * The largest compact JSON text (JSON.stringify of the parsed value, UTF-8 bytes) of any instance of a schema, or
 * Infinity when the schema does not bound it. Used to derive limits from the schemas that state them (issue 12 item 12).
 * Conservative: every optional property present, each `oneOf`/`anyOf` member as large as the largest.
 */
export function worstCaseJsonBytes(schema: JsonSchema, named: ReadonlyMap<string, JsonSchema>): number {
  if (typeof schema === 'boolean') return schema ? Number.POSITIVE_INFINITY : 0;
  if (typeof schema.$ref === 'string') {
    const target = named.get(schema.$ref.replace('#/components/schemas/', ''));
    return target === undefined ? Number.POSITIVE_INFINITY : worstCaseJsonBytes(target, named);
  }
  if ('const' in schema) return utf8Bytes(JSON.stringify(schema.const));
  if (Array.isArray(schema.enum))
    return Math.max(...schema.enum.map((value) => utf8Bytes(JSON.stringify(value))));
  const alternatives = [schema.oneOf, schema.anyOf].find(Array.isArray) as JsonSchema[] | undefined;
  if (alternatives !== undefined)
    return Math.max(...alternatives.map((member) => worstCaseJsonBytes(member, named)));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return Math.max(...types.map((type) => bytesOfType(String(type), schema, named)));
}

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** A pattern built only of ASCII character classes (`^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`) needs no escapes in JSON. */
const asciiClassesOnly = /^\^?(\[[A-Za-z0-9_.-]+\](\{\d+(,\d+)?\}|[*+?])?)+\$?$/;

/** Every double prints in at most 24 characters (`-1.7976931348623157e+308`), 23 without the sign. */
function numberBytes(schema: JsonObject, integer: boolean): number {
  const { minimum, maximum } = schema;
  const bounded = typeof minimum === 'number' && typeof maximum === 'number';
  if (integer && bounded && Math.max(Math.abs(minimum), Math.abs(maximum)) < 1e21)
    return Math.max(String(minimum).length, String(maximum).length);
  return typeof minimum === 'number' && minimum >= 0 ? 23 : 24;
}

function stringBytes(schema: JsonObject): number {
  if (typeof schema.maxLength !== 'number') return Number.POSITIVE_INFINITY;
  // A character JSON.stringify must escape (a control character, a lone surrogate) takes six bytes: \u001f.
  const perCharacter = typeof schema.pattern === 'string' && asciiClassesOnly.test(schema.pattern) ? 1 : 6;
  return 2 + schema.maxLength * perCharacter;
}

function arrayBytes(schema: JsonObject, named: ReadonlyMap<string, JsonSchema>): number {
  if (typeof schema.maxItems !== 'number') return Number.POSITIVE_INFINITY;
  if (schema.maxItems === 0) return 2;
  const item = worstCaseJsonBytes((schema.items ?? true) as JsonSchema, named);
  return 2 + schema.maxItems * item + (schema.maxItems - 1);
}

function objectBytes(schema: JsonObject, named: ReadonlyMap<string, JsonSchema>): number {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const members = Object.entries(properties).map(
    ([name, value]) => utf8Bytes(JSON.stringify(name)) + 1 + worstCaseJsonBytes(value as JsonSchema, named),
  );
  const extra = schema.additionalProperties ?? schema.unevaluatedProperties ?? true;
  if (extra !== false) {
    const room = typeof schema.maxProperties === 'number' ? schema.maxProperties - members.length : Infinity;
    // Property names are strings whether or not propertyNames says so.
    const nameSchema = { type: 'string', ...(isObject(schema.propertyNames) ? schema.propertyNames : {}) };
    const member = worstCaseJsonBytes(nameSchema, named) + 1 + worstCaseJsonBytes(extra as JsonSchema, named);
    for (let index = 0; index < room; index++) {
      members.push(member);
      if (!Number.isFinite(member) || members.length > 100_000) return Number.POSITIVE_INFINITY;
    }
  }
  return 2 + members.reduce((sum, size) => sum + size, 0) + Math.max(members.length - 1, 0);
}

function bytesOfType(type: string, schema: JsonObject, named: ReadonlyMap<string, JsonSchema>): number {
  switch (type) {
    case 'null':
      return 4;
    case 'boolean':
      return 5;
    case 'integer':
      return numberBytes(schema, true);
    case 'number':
      return numberBytes(schema, false);
    case 'string':
      return stringBytes(schema);
    case 'array':
      return arrayBytes(schema, named);
    case 'object':
      return objectBytes(schema, named);
    default:
      return Number.POSITIVE_INFINITY;
  }
}
