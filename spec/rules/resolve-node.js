// @ts-check
// Helpers shared by the telemetry rules: plain-object checks and $ref chasing through the walker's resolver.

/** @typedef {import('@redocly/openapi-core').Location} Location */
/** @typedef {import('@redocly/openapi-core').UserContext} UserContext */
/** @typedef {{ node: unknown, location: Location }} ResolvedNode */

// A self-referencing $ref chain never ends; stop well past any real one.
const MAXIMUM_REF_HOPS = 32;

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * @param {unknown} value
 * @returns {value is { $ref: string }}
 */
export function isReference(value) {
  return isPlainObject(value) && typeof value.$ref === 'string';
}

/**
 * Follows `$ref`s from `node` (found at `location`) to the node they finally point at.
 * Returns undefined when a reference does not resolve; `no-unresolved-refs` reports that.
 *
 * @param {unknown} node
 * @param {Location} location
 * @param {Pick<UserContext, 'resolve'>} context
 * @returns {ResolvedNode | undefined}
 */
export function resolveNode(node, location, context) {
  let current = /** @type {ResolvedNode} */ ({ node, location });
  for (let hop = 0; hop < MAXIMUM_REF_HOPS && isReference(current.node); hop++) {
    const resolved = context.resolve(current.node, current.location.source.absoluteRef);
    if (resolved.location === undefined) return undefined;
    current = { node: resolved.node, location: resolved.location };
  }
  return isReference(current.node) ? undefined : current;
}

/**
 * Names an operation for messages: `GET /streams/{id}` from `#/paths/~1streams~1{id}/get`, `POST webhook stream.created`
 * from `#/webhooks/stream.created/post`, else its operationId (an operation in a path item of another file).
 *
 * @param {unknown} operation
 * @param {Location} operationLocation
 * @returns {string}
 */
export function describeOperation(operation, operationLocation) {
  const segments = operationLocation.pointer
    .replace(/^#\//, '')
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  const [section, pathOrName, method] = segments;
  if ((section === 'paths' || section === 'webhooks') && pathOrName !== undefined && method !== undefined) {
    const kind = section === 'webhooks' ? 'webhook ' : '';
    return `${method.toUpperCase()} ${kind}${pathOrName}`;
  }
  if (isPlainObject(operation) && typeof operation.operationId === 'string') return operation.operationId;
  return operationLocation.pointer;
}
