import { propertyKey, stringLiteral } from '../../ir/names.js';
import { SchemaReference, type SerializationSchema } from './serialization-schema.js';

/** TypeScript text of a serialisation schema; references become whatever `referenceTo` says. */
export function renderSchema(schema: SerializationSchema, referenceTo: (name: string) => string): string {
  if (schema instanceof SchemaReference) return referenceTo(schema.name);
  if (Array.isArray(schema)) return `[${schema.map((item) => renderSchema(item, referenceTo)).join(', ')}]`;
  if (typeof schema === 'string') return stringLiteral(schema);
  if (schema === null || typeof schema !== 'object') return String(schema);
  const entries = Object.entries(schema).map(
    ([key, value]) => `${propertyKey(key)}: ${renderSchema(value, referenceTo)},`,
  );
  if (entries.length === 0) return '{}';
  // Small schemas ({ type: 'string' }) stay on one line; the rest get one line per keyword.
  const oneLine = `{ ${entries.join(' ').slice(0, -1)} }`;
  return oneLine.length <= 60 && !oneLine.includes('\n') ? oneLine : `{\n${entries.join('\n')}\n}`;
}
