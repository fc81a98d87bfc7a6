import { isObject, type JsonObject, mapObjects } from './json.js';
import { pascalCase } from './names.js';

export const schemaRefPrefix = '#/components/schemas/';

/** Component key → canonical PascalCase name, with pure-`$ref` aliases pointing at their target's name. */
export type SchemaNameMap = ReadonlyMap<string, string>;

function aliasTarget(schema: unknown): string | null {
  if (!isObject(schema) || Object.keys(schema).length !== 1) return null;
  const ref = schema.$ref;
  return typeof ref === 'string' && ref.startsWith(schemaRefPrefix)
    ? ref.slice(schemaRefPrefix.length)
    : null;
}

/**
 * Names every component schema after its `title` (the shared schema files all have one) or else its key, so that
 * Redocly's file-derived keys (`stream-properties`) become the names a reader expects (`StreamProperties`).
 * `taken` holds names already used by another document; a clash gets the key-derived name, then a number.
 */
export function nameComponentSchemas(
  schemas: JsonObject,
  taken: ReadonlySet<string> = new Set(),
): SchemaNameMap {
  const names = new Map<string, string>();
  const used = new Set(taken);
  const keys = Object.keys(schemas).sort();
  for (const key of keys) {
    const schema = schemas[key];
    if (aliasTarget(schema) !== null) continue;
    const title = isObject(schema) && typeof schema.title === 'string' ? schema.title : null;
    const candidates = [pascalCase(title ?? key), pascalCase(key)];
    let name = candidates.find((candidate) => !used.has(candidate)) ?? '';
    for (let suffix = 2; name === '' || used.has(name); suffix += 1) name = `${candidates[0]}${suffix}`;
    used.add(name);
    names.set(key, name);
  }
  for (const key of keys) {
    let target = aliasTarget(schemas[key]);
    const seen = new Set([key]);
    while (target !== null && !names.has(target) && !seen.has(target)) {
      seen.add(target);
      target = aliasTarget(schemas[target]);
    }
    if (target !== null && names.has(target)) names.set(key, names.get(target) ?? target);
  }
  return names;
}

/** Rewrites every `#/components/schemas/<key>` reference below `value` to the canonical name. */
export function renameSchemaRefs(value: unknown, names: SchemaNameMap): unknown {
  return mapObjects(value, (node) => {
    const ref = node.$ref;
    if (typeof ref !== 'string' || !ref.startsWith(schemaRefPrefix)) return node;
    const key = decodeURIComponent(ref.slice(schemaRefPrefix.length))
      .replaceAll('~1', '/')
      .replaceAll('~0', '~');
    const name = names.get(key);
    return name === undefined ? node : { ...node, $ref: `${schemaRefPrefix}${name}` };
  });
}
