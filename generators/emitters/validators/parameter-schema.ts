import { jsonIntegerPattern, jsonNumberPattern } from '../../../runtime/number-forms.js';
import { isObject, type JsonObject } from '../../ir/json.js';
import type { ApiModel, JsonSchema, Parameter } from '../../ir/model.js';
import { namedSchemaRef } from './compile.js';

export type ParameterLocation = Parameter['in'];

/** Query objects are closed only when the spec says unknown query parameters are refused. */
export function rejectsUnknownQuery(model: ApiModel): boolean {
  const policy = model.extensions['x-unknown-parameters'];
  return isObject(policy) && policy.query === 'reject';
}

/** How parameter sets are built from a spec's policies. */
export interface ParameterPolicy {
  /** `x-unknown-parameters.query: reject`: a query object refuses parameters the operation does not define. */
  closedQuery: boolean;
  /**
   * `x-parameter-values.numbers: json`: an integer or number parameter must be written as JSON writes it. Without it,
   * Ajv's coercion reads any string JavaScript's `Number()` reads (`1e2`, `0x10`, ` 5`).
   */
  numbersAsJson: boolean;
  /** The named schemas, so a parameter whose schema is a `$ref` is known to be a number. */
  named: ReadonlyMap<string, JsonSchema>;
}

export function parameterPolicy(model: ApiModel): ParameterPolicy {
  const values = model.extensions['x-parameter-values'];
  return {
    closedQuery: rejectsUnknownQuery(model),
    numbersAsJson: isObject(values) && values.numbers === 'json',
    named: new Map(model.schemas.map((schema) => [namedSchemaRef(schema.name), schema.schema])),
  };
}

/**
 * `integer` or `number` when the schema (through `$ref`s) allows only numbers of that kind. A nullable one is left to
 * Ajv, which reads an empty string as its null.
 */
function numericKind(schema: JsonSchema, named: ReadonlyMap<string, JsonSchema>, seen = new Set<string>()) {
  if (!isObject(schema)) return undefined;
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const target = named.get(ref);
    if (target === undefined || seen.has(ref)) return undefined;
    seen.add(ref);
    return numericKind(target, named, seen);
  }
  return schema.type === 'integer' || schema.type === 'number' ? schema.type : undefined;
}

/**
 * The pattern checks the string as it arrives, before the second schema coerces it (within one schema Ajv coerces
 * first); `pattern` ignores non-strings, so a repeated parameter still fails on its type. `default` moves up to the
 * property's own schema, the only place Ajv's useDefaults reads it.
 */
function writtenAsJson(schema: JsonSchema, kind: 'integer' | 'number'): JsonSchema {
  const pattern = kind === 'integer' ? jsonIntegerPattern : jsonNumberPattern;
  const fallback = isObject(schema) && 'default' in schema ? { default: schema.default } : {};
  return { allOf: [{ pattern }, schema], ...fallback };
}

function parameterSchema(parameter: Parameter, policy: ParameterPolicy): JsonSchema {
  const kind = policy.numbersAsJson ? numericKind(parameter.schema, policy.named) : undefined;
  return kind === undefined ? parameter.schema : writtenAsJson(parameter.schema, kind);
}

/**
 * One object schema for the parameters of one location, so a single validator checks the whole set and names the
 * failing parameter. Header sets stay open: clients and proxies add headers the spec cannot list.
 */
export function parameterSetSchema(
  parameters: readonly Parameter[],
  location: ParameterLocation,
  policy: ParameterPolicy,
): JsonObject {
  const required = parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name);
  return {
    type: 'object',
    properties: Object.fromEntries(
      parameters.map((parameter) => [parameter.name, parameterSchema(parameter, policy)]),
    ),
    ...(required.length === 0 ? {} : { required }),
    ...(location === 'query' && policy.closedQuery ? { additionalProperties: false } : {}),
  };
}
