import { isObject, type JsonObject, stringAt } from '../../ir/json.js';
import type { ApiModel, JsonSchema, Operation, Response } from '../../ir/model.js';

/** The spec's cursor pagination rules (`x-pagination`), with the names generated list iterators use. */
export interface PaginationRules {
  cursorParameter: string;
  itemsField: string;
  nextCursorField: string;
  hasMoreField: string | null;
}

export interface ListShape {
  /** The named schema of one item, when the page schema names it. */
  itemSchema: string | null;
}

export function paginationRules(model: ApiModel): PaginationRules | null {
  const rules = model.extensions['x-pagination'];
  const cursorParameter = stringAt(rules, 'cursorParameter');
  const itemsField = stringAt(rules, 'itemsField');
  const nextCursorField = stringAt(rules, 'nextCursorField');
  if (cursorParameter === null || itemsField === null || nextCursorField === null) return null;
  return { cursorParameter, itemsField, nextCursorField, hasMoreField: stringAt(rules, 'hasMoreField') };
}

export function successResponse(operation: Operation): Response | null {
  return operation.responses.find((response) => response.status.startsWith('2')) ?? null;
}

function resolve(model: ApiModel, schema: unknown): JsonObject | null {
  if (!isObject(schema)) return null;
  if (typeof schema.$ref !== 'string') return schema;
  const name = schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1);
  return resolve(model, model.schemas.find((named) => named.name === name)?.schema);
}

/** A property's schema, looked up through references and `allOf`; the page's own declaration wins. */
function propertySchema(
  model: ApiModel,
  schema: JsonSchema | unknown,
  name: string,
  depth = 0,
): JsonObject | null {
  const node = resolve(model, schema);
  if (node === null || depth > 8) return null;
  const own = isObject(node.properties) ? node.properties[name] : undefined;
  if (isObject(own)) return own;
  const parts = Array.isArray(node.allOf) ? node.allOf : [];
  for (const part of parts) {
    const found = propertySchema(model, part, name, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** A list operation takes the cursor parameter and answers a page with the items field; null for any other. */
export function listShape(
  model: ApiModel,
  rules: PaginationRules | null,
  operation: Operation,
): ListShape | null {
  if (rules === null) return null;
  const takesCursor = operation.parameters.some(
    (parameter) => parameter.in === 'query' && parameter.name === rules.cursorParameter,
  );
  const response = successResponse(operation);
  if (!takesCursor || response?.schema === null || response === null) return null;
  const items = propertySchema(model, response.schema, rules.itemsField);
  if (items === null) return null;
  const itemRef = isObject(items.items) && typeof items.items.$ref === 'string' ? items.items.$ref : null;
  return { itemSchema: itemRef === null ? null : itemRef.slice(itemRef.lastIndexOf('/') + 1) };
}
