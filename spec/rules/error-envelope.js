// @ts-check
// telemetry/error-envelope: every 4xx/5xx response answers with the one error envelope, so clients and the
// conformance suite parse every failure the same way. Operations that speak another error format opt out.
import { describeOperation, isPlainObject, resolveNode } from './resolve-node.js';

/** @typedef {import('@redocly/openapi-core').Location} Location */
/** @typedef {import('@redocly/openapi-core').UserContext} UserContext */
/** @typedef {import('./resolve-node.js').ResolvedNode} ResolvedNode */

const ENVELOPE_NAME = 'ErrorResponse';
const ERROR_MEDIA_TYPE = 'application/json';
// RFC 6749 token errors and HTML consent pages cannot carry the JSON envelope.
const DEFAULT_EXEMPT_FORMATS = ['rfc6749', 'html'];
const ERROR_STATUS = /^[45](\d\d|XX)$/i;
const REQUIRED_ERROR_FIELDS = ['type', 'code', 'message', 'requestId'];

/**
 * @param {unknown} schema
 * @returns {string[]}
 */
function requiredOf(schema) {
  return isPlainObject(schema) && Array.isArray(schema.required) ? schema.required.map(String) : [];
}

/**
 * Checks the envelope schema itself: `{ error: { type, code, message, param?, requestId } }`.
 *
 * @param {ResolvedNode} envelope
 * @param {UserContext} context
 * @returns {string[]} what is missing
 */
function findEnvelopeDefects(envelope, context) {
  const envelopeSchema = envelope.node;
  const properties = isPlainObject(envelopeSchema) ? envelopeSchema.properties : undefined;
  if (!isPlainObject(properties) || !('error' in properties)) return ['a property `error`'];
  const defects = requiredOf(envelopeSchema).includes('error') ? [] : ['`error` in `required`'];
  const errorObject = resolveNode(
    properties.error,
    envelope.location.child(['properties', 'error']),
    context,
  );
  if (errorObject === undefined) return defects;
  const errorProperties = isPlainObject(errorObject.node) ? errorObject.node.properties : undefined;
  const errorRequired = requiredOf(errorObject.node);
  for (const field of [...REQUIRED_ERROR_FIELDS, 'param']) {
    if (!isPlainObject(errorProperties) || !(field in errorProperties))
      defects.push(`a property \`error.${field}\``);
  }
  for (const field of REQUIRED_ERROR_FIELDS) {
    if (!errorRequired.includes(field)) defects.push(`\`${field}\` in \`error.required\``);
  }
  return defects;
}

/** @type {import('@redocly/openapi-core').Oas3Rule} */
export function ErrorEnvelope(options) {
  const exemptFormats = Array.isArray(options.exemptFormats)
    ? options.exemptFormats.map(String)
    : DEFAULT_EXEMPT_FORMATS;
  /** @type {ResolvedNode | undefined} */
  let envelope;
  // A shared response component is reported once, not once per operation using it.
  const reportedPointers = new Set();

  /**
   * @param {string} message
   * @param {Location} location
   * @param {UserContext['report']} report
   */
  function reportOnce(message, location, report) {
    if (reportedPointers.has(location.absolutePointer)) return;
    reportedPointers.add(location.absolutePointer);
    report({ message, location });
  }

  /**
   * @param {string} status
   * @param {unknown} responseOrReference
   * @param {Location} responseLocation
   * @param {string} operationName
   * @param {UserContext} context
   */
  function checkErrorResponse(status, responseOrReference, responseLocation, operationName, context) {
    const response = resolveNode(responseOrReference, responseLocation, context);
    if (response === undefined || !isPlainObject(response.node)) return;
    const content = response.node.content;
    const mediaType = isPlainObject(content) ? content[ERROR_MEDIA_TYPE] : undefined;
    if (!isPlainObject(mediaType) || mediaType.schema === undefined) {
      reportOnce(
        `Response ${status} of ${operationName} must have \`${ERROR_MEDIA_TYPE}\` content with schema ${ENVELOPE_NAME}.`,
        isPlainObject(content) ? response.location.child(['content']) : response.location,
        context.report,
      );
      return;
    }
    const schemaLocation = response.location.child(['content', ERROR_MEDIA_TYPE, 'schema']);
    const schema = resolveNode(mediaType.schema, schemaLocation, context);
    if (envelope === undefined || schema === undefined || schema.node === envelope.node) return;
    reportOnce(
      `Response ${status} of ${operationName} must use the error envelope: \`$ref: '#/components/schemas/${ENVELOPE_NAME}'\`.`,
      schemaLocation,
      context.report,
    );
  }

  return {
    Root: {
      enter(root, context) {
        const componentsLocation = context.location.child(['components', 'schemas']);
        const schemas = isPlainObject(root.components) ? root.components.schemas : undefined;
        const entry = isPlainObject(schemas) ? schemas[ENVELOPE_NAME] : undefined;
        if (entry === undefined) {
          context.report({
            message: `\`components.schemas.${ENVELOPE_NAME}\` is missing; every error response refers to it.`,
            location: isPlainObject(schemas) ? componentsLocation.key() : context.location,
          });
          return;
        }
        envelope = resolveNode(entry, componentsLocation.child([ENVELOPE_NAME]), context);
        if (envelope === undefined) return;
        const defects = findEnvelopeDefects(envelope, context);
        if (defects.length > 0) {
          context.report({
            message: `${ENVELOPE_NAME} must have the shape { error: { type, code, message, param?, requestId } }; missing ${defects.join(', ')}.`,
            location: envelope.location,
          });
        }
      },
    },
    Operation: {
      enter(operation, context) {
        const errorFormat = isPlainObject(operation) ? operation['x-error-format'] : undefined;
        if (typeof errorFormat === 'string' && exemptFormats.includes(errorFormat)) return;
        if (!isPlainObject(operation.responses)) return;
        const operationName = describeOperation(operation, context.location);
        for (const [status, response] of Object.entries(operation.responses)) {
          if (!ERROR_STATUS.test(status)) continue;
          const responseLocation = context.location.child(['responses', status]);
          checkErrorResponse(status, response, responseLocation, operationName, context);
        }
      },
    },
  };
}
