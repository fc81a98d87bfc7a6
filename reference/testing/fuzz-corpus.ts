import { routes } from '../../generated/server/routes.js';
import type { OperationId } from './call-operation.js';

/** Values that break a field's type or size, or that databases and parsers choke on. */
export const hostileValues: ReadonlyArray<[string, unknown]> = [
  ['null', null],
  ['array', ['a', 1]],
  ['object', { nested: { deeper: true } }],
  ['number', 42],
  ['negative number', -1],
  ['huge number', 1e308],
  ['fraction', 0.5],
  ['boolean', true],
  ['empty string', ''],
  ['huge string', 'x'.repeat(100_000)],
  ['unicode', 'Zoë 🚀 \u202e RTL'],
  ['nul character', 'before\u0000after'],
  ['lone surrogate', 'bad \ud800 half'],
  ['control characters', '\u0001\u0007\u001b[31m'],
];

/** Whole request bodies that are JSON but not objects, or objects with dangerous keys, or deep. */
export const hostileJsonBodies: ReadonlyArray<[string, string]> = [
  ['null', 'null'],
  ['array', '[]'],
  ['array of objects', '[{"title":"x"}]'],
  ['string', '"text"'],
  ['number', '42'],
  ['boolean', 'true'],
  ['empty object', '{}'],
  ['__proto__ key', '{"__proto__":{"polluted":true},"title":"x"}'],
  ['constructor key', '{"constructor":{"prototype":{"polluted":true}},"title":"x"}'],
  ['deep nesting', `${'['.repeat(2000)}${']'.repeat(2000)}`],
  ['duplicate keys', '{"title":"a","title":"b"}'],
];

/** Path segments as sent, without further encoding. */
export const hostilePathSegments: ReadonlyArray<[string, string]> = [
  ['dot dot', '..'],
  ['dot dot slash', '../account'],
  ['encoded dot dot', '..%2F..%2Faccount'],
  ['encoded nul', '%00'],
  ['id with nul', 'stm_abc%00def'],
  ['very long', 'a'.repeat(5000)],
  ['very long id', `stm_${'A'.repeat(300)}`],
  ['unicode', encodeURIComponent('stm_🚀')],
  ['broken escape', '%E0%A4%A'],
  ['percent', '%'],
  ['quote', encodeURIComponent("' OR 1=1 --")],
  ['spaces', 'stm%20abc'],
];

/** Query strings (already encoded) for the list operations. */
export const hostileQueries: ReadonlyArray<[string, string]> = [
  ['negative limit', 'limit=-1'],
  ['huge limit', 'limit=1e309'],
  ['fractional limit', 'limit=2.5'],
  ['repeated limit', 'limit=1&limit=2'],
  ['array limit', 'limit[]=1'],
  ['empty cursor', 'after='],
  ['long cursor', `after=${'a'.repeat(5000)}`],
  ['nul cursor', 'after=%00'],
  ['broken escape', 'after=%E0%A4%A'],
  ['unknown status', 'status=%F0%9F%9A%80'],
  ['prototype', '__proto__=x&constructor=y'],
];

/** The path of an operation with parameters given as raw (already encoded) segments. */
export function rawPath(operationId: OperationId, params: Record<string, string>): string {
  return routes[operationId].url.replace(
    /:([A-Za-z]+)/g,
    (_whole, name: string) => params[name] ?? 'missing',
  );
}

type Json = unknown;

/** Every node below the root of a JSON value, as the path of keys that reaches it. */
function nodePaths(value: Json, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const children: Array<[string | number, Json]> = Array.isArray(value)
    ? value.map((item, index): [number, Json] => [index, item])
    : typeof value === 'object' && value !== null
      ? Object.entries(value)
      : [];
  return children.flatMap(([key, child]) => [[...prefix, key], ...nodePaths(child, [...prefix, key])]);
}

/** A copy of `value` with the node at `path` replaced. */
function replacedAt(value: Json, path: ReadonlyArray<string | number>, replacement: Json): Json {
  const [key, ...rest] = path;
  if (key === undefined) return replacement;
  if (Array.isArray(value))
    return value.map((item, index) => (index === key ? replacedAt(item, rest, replacement) : item));
  const record = value as Record<string, Json>;
  return { ...record, [key]: replacedAt(record[key], rest, replacement) };
}

/** Each node of a valid body (at any depth) set to each hostile value, and the body with an unknown field of each. */
export function hostileFieldBodies(valid: Record<string, unknown>): Array<[string, unknown]> {
  return hostileValues.flatMap(([name, value]) => [
    ...nodePaths(valid).map((path): [string, unknown] => [
      `${path.join('.')} ${name}`,
      replacedAt(valid, path, value),
    ]),
    [`unknown field ${name}`, { ...valid, extra: value }],
  ]);
}
