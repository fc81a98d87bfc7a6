/** Small helpers for walking parsed YAML/JSON without `any`. */

export type JsonObject = { readonly [key: string]: unknown };

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function objectAt(value: unknown, key: string): JsonObject | null {
  if (!isObject(value)) return null;
  const child = value[key];
  return isObject(child) ? child : null;
}

export function stringAt(value: unknown, key: string): string | null {
  if (!isObject(value)) return null;
  const child = value[key];
  return typeof child === 'string' ? child : null;
}

export function extensionsOf(value: unknown): Record<string, unknown> {
  if (!isObject(value)) return {};
  return Object.fromEntries(Object.entries(value).filter(([key]) => key.startsWith('x-')));
}

/** Deep copy with `transform` applied to every object node, children first. */
export function mapObjects(value: unknown, transform: (node: JsonObject) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => mapObjects(item, transform));
  if (!isObject(value)) return value;
  const copy = Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key, mapObjects(child, transform)]),
  );
  return transform(copy);
}

/** JSON with keys sorted at every level: equal data gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, node: unknown) =>
    isObject(node)
      ? Object.fromEntries(Object.entries(node).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : node,
  );
}
