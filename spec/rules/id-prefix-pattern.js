// @ts-check
// telemetry/id-prefix-pattern: ids carry a typed prefix (`stm_…`, `rpt_…`), so a stream id can never be passed
// where a report id is expected, and the generated validators reject it.
import { isPlainObject, isReference, resolveNode } from './resolve-node.js';

/** @typedef {import('@redocly/openapi-core').Location} Location */
/** @typedef {import('@redocly/openapi-core').UserContext} UserContext */

const ID_NAME = /^id$|Id$/;
// `^stm_…`, or a group of prefixes for an id that may name several kinds: `^(stm|pod)_…`.
const PREFIXED_PATTERN = /^\^([a-z][a-z0-9]*|\((\?:)?[a-z][a-z0-9]*(\|[a-z][a-z0-9]*)*\))_/;
const EXPECTED =
  "a string schema with a `pattern` like '^stm_[A-Za-z0-9]+$' (start anchor, lowercase prefix, underscore)";

/**
 * @param {unknown} type
 * @returns {boolean} the type allows strings and at most `null` besides
 */
function isStringType(type) {
  if (type === 'string') return true;
  return (
    Array.isArray(type) &&
    type.includes('string') &&
    type.every((member) => member === 'string' || member === 'null')
  );
}

/**
 * @param {unknown} schema
 * @returns {boolean}
 */
function isNullOnly(schema) {
  return isPlainObject(schema) && (schema.type === 'null' || schema.const === null);
}

/**
 * Whether a schema (following $refs, `allOf`, and `anyOf`/`oneOf` with a null branch) is a prefixed id.
 *
 * @param {unknown} schemaOrReference
 * @param {Location} location
 * @param {UserContext} context
 * @param {number} depth
 * @returns {boolean}
 */
function isPrefixedIdSchema(schemaOrReference, location, context, depth = 0) {
  if (depth > 16) return false;
  const resolved = resolveNode(schemaOrReference, location, context);
  // An unresolved $ref is reported by no-unresolved-refs; do not report it twice.
  if (resolved === undefined) return true;
  // Keywords written next to a $ref (OpenAPI 3.1) combine with its target.
  const candidates = isReference(schemaOrReference) ? [schemaOrReference, resolved.node] : [resolved.node];
  const hasConst = candidates.some((candidate) => isPlainObject(candidate) && candidate.const !== undefined);
  if (hasConst) return true;
  const hasPattern = candidates.some(
    (candidate) =>
      isPlainObject(candidate) &&
      typeof candidate.pattern === 'string' &&
      PREFIXED_PATTERN.test(candidate.pattern),
  );
  const hasStringType = candidates.some(
    (candidate) => isPlainObject(candidate) && isStringType(candidate.type),
  );
  if (hasPattern && hasStringType) return true;
  const schema = resolved.node;
  if (!isPlainObject(schema)) return false;
  const allOf = Array.isArray(schema.allOf) ? schema.allOf : [];
  const isIdByAllOf = allOf.some((branch, index) =>
    isPrefixedIdSchema(branch, resolved.location.child(['allOf', index]), context, depth + 1),
  );
  if (isIdByAllOf) return true;
  for (const keyword of ['anyOf', 'oneOf']) {
    const branches = schema[keyword];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const isIdInEveryBranch = branches.every(
      (branch, index) =>
        isNullOnly(resolveNode(branch, resolved.location.child([keyword, index]), context)?.node) ||
        isPrefixedIdSchema(branch, resolved.location.child([keyword, index]), context, depth + 1),
    );
    if (isIdInEveryBranch) return true;
  }
  return false;
}

/** @type {import('@redocly/openapi-core').Oas3Rule} */
export function IdPrefixPattern() {
  return {
    SchemaProperties: {
      enter(properties, context) {
        for (const [name, schema] of Object.entries(properties)) {
          if (!ID_NAME.test(name)) continue;
          const location = context.location.child([name]);
          if (isPrefixedIdSchema(schema, location, context)) continue;
          context.report({
            message: `Property \`${name}\` is an id and needs ${EXPECTED}.`,
            location: location.key(),
          });
        }
      },
    },
    Parameter: {
      enter(parameter, context) {
        if (parameter.in !== 'path' || typeof parameter.name !== 'string' || !ID_NAME.test(parameter.name))
          return;
        const schemaLocation = context.location.child(['schema']);
        const schemas = parameter.schema
          ? [{ schema: parameter.schema, location: schemaLocation }]
          : Object.entries(parameter.content ?? {}).map(([mediaType, media]) => ({
              schema: media.schema,
              location: context.location.child(['content', mediaType, 'schema']),
            }));
        const isPrefixed =
          schemas.length > 0 &&
          schemas.every((entry) => isPrefixedIdSchema(entry.schema, entry.location, context));
        if (isPrefixed) return;
        context.report({
          message: `Path parameter \`${parameter.name}\` is an id and needs ${EXPECTED}.`,
          location: parameter.schema ? schemaLocation : context.location.child(['name']),
        });
      },
    },
  };
}
