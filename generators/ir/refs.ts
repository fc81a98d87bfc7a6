import { resolveJsonPointer } from '../../runtime/json-pointer.js';
import type { Problem } from '../problems.js';
import { isObject, type JsonObject } from './json.js';

/** Where a node came from, for problems and `@see` links. */
export interface Location {
  file: string;
  pointer: string;
}

/**
 * Follows local `$ref`s to a non-reference object (parameters, responses, headers, request bodies). Schema
 * references are kept as they are by the callers and never passed here. A broken reference becomes a problem.
 */
export function resolveLocalRef(
  document: unknown,
  node: unknown,
  location: Location,
  problems: Problem[],
): JsonObject | null {
  let current = node;
  const seen = new Set<string>();
  while (isObject(current) && typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (!ref.startsWith('#') || seen.has(ref)) {
      problems.push({
        severity: 'error',
        file: location.file,
        pointer: location.pointer,
        message: seen.has(ref) ? `circular reference ${ref}` : `unresolved reference ${ref}`,
        rule: 'ir/unresolved-ref',
      });
      return null;
    }
    seen.add(ref);
    current = resolveJsonPointer(document, ref);
    if (current === undefined) {
      problems.push({
        severity: 'error',
        file: location.file,
        pointer: location.pointer,
        message: `unresolved reference ${ref}`,
        rule: 'ir/unresolved-ref',
      });
      return null;
    }
  }
  return isObject(current) ? current : null;
}

/** Prefers a JSON media type, then form encoding, then whatever comes first. */
export function preferredContentType(content: JsonObject | null): string | null {
  if (content === null) return null;
  const types = Object.keys(content);
  return (
    types.find((type) => type === 'application/json') ??
    types.find((type) => /^application\/[^;]*\+json/.test(type)) ??
    types.find((type) => type === 'application/x-www-form-urlencoded') ??
    types[0] ??
    null
  );
}
