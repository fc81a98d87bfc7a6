import type { SchemaLookup } from './flatten-schema.js';
import { SchemaReference, type SerializationSchema, serializationOf } from './serialization-schema.js';

export function hasProperties(schema: SerializationSchema): boolean {
  if (schema === null || typeof schema !== 'object' || schema instanceof SchemaReference) return false;
  if (Array.isArray(schema)) return schema.some(hasProperties);
  return 'properties' in schema || Object.values(schema).some(hasProperties);
}

export function references(schema: SerializationSchema): string[] {
  if (schema instanceof SchemaReference) return [schema.name];
  if (Array.isArray(schema)) return schema.flatMap(references);
  if (schema === null || typeof schema !== 'object') return [];
  return Object.values(schema).flatMap(references);
}

/**
 * The named schemas the given ones reach, simplified, in an order where each comes after those it uses; the names on
 * a reference cycle are set apart as recursive (a constant cannot hold itself).
 */
export function namedSchemas(roots: readonly SerializationSchema[], lookup: SchemaLookup) {
  const named = new Map<string, SerializationSchema>();
  const recursive = new Set<string>();
  const stack: string[] = [];
  const visit = (name: string): void => {
    if (stack.includes(name)) {
      for (const member of stack.slice(stack.indexOf(name))) recursive.add(member);
      return;
    }
    if (named.has(name)) return;
    const schema = serializationOf(lookup(name)?.schema, lookup);
    stack.push(name);
    references(schema).forEach(visit);
    stack.pop();
    named.set(name, schema);
  };
  roots.flatMap(references).forEach(visit);
  return { named, recursive };
}
