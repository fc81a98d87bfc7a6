// The spec read as data at run time (like the catalogue): the JSON Schemas of request bodies and the list parameters,
// with local `$ref`s resolved, so negative cases and bounds are derived from the spec instead of restated.
import path from 'node:path';
import { formatJsonPointer, parseJsonPointer } from '../../../runtime/json-pointer.js';
import { readYamlFile } from '../../../runtime/yaml-file.js';

const specDirectory = path.resolve(import.meta.dirname, '../../../spec');
const documents = new Map<string, unknown>();

export type JsonObject = { [key: string]: unknown };

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A file of spec/ (relative to it, `schemas/title.yaml`), parsed once. */
function specDocument(file: string): unknown {
  let document = documents.get(file);
  if (document === undefined) {
    document = readYamlFile(path.join(specDirectory, file));
    documents.set(file, document);
  }
  return document;
}

function valueAt(file: string, tokens: readonly string[]): unknown {
  let current = specDocument(file);
  for (const token of tokens) {
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isObject(current)) current = current[token];
    else return undefined;
  }
  return current;
}

/** Where a schema (or one of its keywords) is written: `schemas/common.yaml#/$defs/Title`, as the catalogue names places. */
export interface SpecLocation {
  file: string;
  tokens: readonly string[];
}

export function locationText(location: SpecLocation, ...more: string[]): string {
  return `${location.file}#${formatJsonPointer([...location.tokens, ...more])}`;
}

/** One layer of a schema: the object written at a location. A `$ref` adds the layer it points to below it. */
interface SchemaLayer {
  node: JsonObject;
  at: SpecLocation;
}

/**
 * A schema with its `$ref`s followed: the outermost layer first, so a keyword beside a `$ref` (a `default`, a
 * `description`) wins over the referenced schema's, as in JSON Schema 2020-12 where both apply.
 */
export class ResolvedSchema {
  private constructor(readonly layers: readonly SchemaLayer[]) {}

  static at(file: string, tokens: readonly string[] = []): ResolvedSchema {
    const layers: SchemaLayer[] = [];
    let location: SpecLocation | null = { file, tokens };
    const seen = new Set<string>();
    while (location !== null) {
      const key = locationText(location);
      if (seen.has(key)) throw new Error(`a $ref cycle at ${key}`);
      seen.add(key);
      const node = valueAt(location.file, location.tokens);
      if (!isObject(node)) throw new Error(`no schema at ${key}`);
      layers.push({ node, at: location });
      const reference = node.$ref;
      location = typeof reference === 'string' ? referenceTarget(location.file, reference) : null;
    }
    return new ResolvedSchema(layers);
  }

  /** The outermost location: where this schema is used. */
  get site(): SpecLocation {
    const first = this.layers[0];
    if (first === undefined) throw new Error('a schema without layers');
    return first.at;
  }

  /** The innermost location: where the schema itself is defined (the target of the last `$ref`). */
  get definition(): SpecLocation {
    const last = this.layers.at(-1);
    if (last === undefined) throw new Error('a schema without layers');
    return last.at;
  }

  /** Every location the schema is written at, outermost first (the use site, then each `$ref` target). */
  get sites(): string[] {
    return this.layers.map((layer) => locationText(layer.at));
  }

  /** A keyword's value and where it is written, or undefined. */
  keyword(name: string): { value: unknown; at: string } | undefined {
    for (const layer of this.layers) {
      if (Object.hasOwn(layer.node, name))
        return { value: layer.node[name], at: locationText(layer.at, name) };
    }
    return undefined;
  }

  value(name: string): unknown {
    return this.keyword(name)?.value;
  }

  number(name: string): number | undefined {
    const value = this.value(name);
    return typeof value === 'number' ? value : undefined;
  }

  /** The sub-schema under a keyword path (`properties`, `title`), resolved, or undefined. */
  child(...keywordPath: string[]): ResolvedSchema | undefined {
    for (const layer of this.layers) {
      const value = valueAt(layer.at.file, [...layer.at.tokens, ...keywordPath]);
      if (isObject(value)) return ResolvedSchema.at(layer.at.file, [...layer.at.tokens, ...keywordPath]);
    }
    return undefined;
  }

  /** The JSON types the schema allows (`type` as string or list); empty when it names none. */
  get types(): string[] {
    const type = this.value('type');
    if (typeof type === 'string') return [type];
    return Array.isArray(type) ? type.filter((item): item is string => typeof item === 'string') : [];
  }

  /** The allowed values of an `enum`, a `const`, or a `oneOf` of `const`s; undefined when the schema has none. */
  get members(): unknown[] | undefined {
    const enumeration = this.value('enum');
    if (Array.isArray(enumeration)) return enumeration;
    const constant = this.keyword('const');
    if (constant !== undefined) return [constant.value];
    const choices = this.value('oneOf');
    if (Array.isArray(choices) && choices.every((choice) => isObject(choice) && 'const' in choice))
      return choices.map((choice) => (choice as JsonObject).const);
    return undefined;
  }

  /** Where the enumeration is written (`enum`, `const` or `oneOf`). */
  get membersAt(): string | undefined {
    return (this.keyword('enum') ?? this.keyword('const') ?? this.keyword('oneOf'))?.at;
  }

  get propertyNames(): string[] {
    const properties = this.value('properties');
    return isObject(properties) ? Object.keys(properties) : [];
  }

  get required(): string[] {
    const required = this.value('required');
    return Array.isArray(required) ? required.filter((item): item is string => typeof item === 'string') : [];
  }
}

function referenceTarget(file: string, reference: string): SpecLocation {
  const [target = '', pointer = ''] = reference.split('#');
  const targetFile =
    target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
  return { file: targetFile, tokens: parseJsonPointer(pointer === '' ? '' : `#${pointer}`) };
}

/** An operation of openapi.yaml whose request body is JSON: its id and the body's schema. */
export interface JsonBodyOperation {
  operationId: string;
  /** Where the operation is written (`openapi.yaml#/paths/~1streams/post`). */
  at: string;
  body: ResolvedSchema;
}

const httpMethods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

let bodyOperations: JsonBodyOperation[] | null = null;

/** Every operation of the REST API that takes a JSON body, in the spec's order. */
export function jsonBodyOperations(): JsonBodyOperation[] {
  bodyOperations ??= readJsonBodyOperations();
  return bodyOperations;
}

function readJsonBodyOperations(): JsonBodyOperation[] {
  const paths = valueAt('openapi.yaml', ['paths']);
  if (!isObject(paths)) return [];
  const operations: JsonBodyOperation[] = [];
  for (const [pathName, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!httpMethods.has(method) || !isObject(operation) || typeof operation.operationId !== 'string')
        continue;
      const tokens = ['paths', pathName, method, 'requestBody', 'content', 'application/json', 'schema'];
      if (!isObject(valueAt('openapi.yaml', tokens))) continue;
      operations.push({
        operationId: operation.operationId,
        at: locationText({ file: 'openapi.yaml', tokens: ['paths', pathName, method] }),
        body: ResolvedSchema.at('openapi.yaml', tokens),
      });
    }
  }
  return operations;
}

/** The schema of a shared parameter of openapi.yaml (`Limit`), resolved. */
export function parameterSchema(name: string): ResolvedSchema {
  return ResolvedSchema.at('openapi.yaml', ['components', 'parameters', name, 'schema']);
}

/** The page size bounds of every list operation, from the Limit parameter. */
export function limitBounds(): { minimum: number; maximum: number } {
  const schema = parameterSchema('Limit');
  const minimum = schema.number('minimum');
  const maximum = schema.number('maximum');
  if (minimum === undefined || maximum === undefined) throw new Error('the Limit parameter has no bounds');
  return { minimum, maximum };
}

/** The last path segment of the default `{base_url}` (`v2`): the version every base address ends with. */
export function apiVersionSegment(): string {
  const url = valueAt('openapi.yaml', ['servers', '0', 'variables', 'base_url', 'default']);
  if (typeof url !== 'string') throw new Error('openapi.yaml has no default base_url');
  const segment = new URL(url).pathname
    .split('/')
    .filter((part) => part !== '')
    .at(-1);
  if (segment === undefined) throw new Error(`no version segment in ${url}`);
  return segment;
}

/** The JSON body schema of an operation, or undefined when it takes none. */
export function jsonBodyOf(operationId: string): JsonBodyOperation | undefined {
  return jsonBodyOperations().find((operation) => operation.operationId === operationId);
}

/** The value written at a spec location (`schemas/report.yaml#/properties/object/const`), as the catalogue names it. */
export function specValue(location: string): unknown {
  const [file = '', pointer = ''] = location.split('#');
  return valueAt(file, parseJsonPointer(pointer === '' ? '' : `#${pointer}`));
}
