import { readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { parseJsonPointer } from '../../runtime/json-pointer.js';
import { isObject } from '../ir/json.js';

/**
 * Redocly names a hoisted component after the last pointer segment of the reference, or the file's base name
 * (`./schemas/stream.yaml` → `stream`, `./ids.yaml#/$defs/StreamId` → `StreamId`). Walking the same references
 * tells, for each such key, the file and pointer it was written at, so `@see` links name the real source.
 */
export function collectRefOrigins(entryFile: string, rootDir: string): Map<string, string> {
  return walkExternalRefs(entryFile, rootDir).origins;
}

/** The origins, and every file the walk read: the entry and each file reached through external references. */
export function walkExternalRefs(
  entryFile: string,
  rootDir: string,
): { origins: Map<string, string>; files: string[] } {
  const origins = new Map<string, string>();
  const visited = new Set<string>();
  const pending = [path.resolve(entryFile)];
  while (pending.length > 0) {
    const file = pending.pop() ?? '';
    if (visited.has(file)) continue;
    visited.add(file);
    let document: unknown;
    try {
      document = YAML.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    for (const ref of externalRefs(document)) {
      const [relativeFile = '', pointer = ''] = ref.split('#', 2);
      const target = path.resolve(path.dirname(file), relativeFile);
      const tokens = pointer === '' ? [] : parseJsonPointer(pointer);
      const key = tokens.at(-1) ?? path.basename(target).replace(/\.(ya?ml|json)$/, '');
      const origin = `${path.relative(rootDir, target)}${pointer === '' ? '' : `#${pointer}`}`;
      if (!origins.has(key)) origins.set(key, origin);
      pending.push(target);
    }
  }
  return { origins, files: [...visited] };
}

function externalRefs(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(externalRefs);
  if (!isObject(value)) return [];
  const own = typeof value.$ref === 'string' && !value.$ref.startsWith('#') ? [value.$ref] : [];
  return [...own, ...Object.values(value).flatMap(externalRefs)];
}
