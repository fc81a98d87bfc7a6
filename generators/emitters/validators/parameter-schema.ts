import { isObject, type JsonObject } from '../../ir/json.js';
import type { ApiModel, Parameter } from '../../ir/model.js';

export type ParameterLocation = Parameter['in'];

/** Query objects are closed only when the spec says unknown query parameters are refused. */
export function rejectsUnknownQuery(model: ApiModel): boolean {
  const policy = model.extensions['x-unknown-parameters'];
  return isObject(policy) && policy.query === 'reject';
}

/**
 * One object schema for the parameters of one location, so a single validator checks the whole set and names the
 * failing parameter. Header sets stay open: clients and proxies add headers the spec cannot list.
 */
export function parameterSetSchema(parameters: readonly Parameter[], closed: boolean): JsonObject {
  const required = parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name);
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
    ...(required.length === 0 ? {} : { required }),
    ...(closed ? { additionalProperties: false } : {}),
  };
}
