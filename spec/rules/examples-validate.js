// @ts-check
// telemetry/examples-validate: every example validates against its schema under the dialect the generated
// validators use (Ajv, JSON Schema 2020-12, ajv-formats), so documentation never shows a payload the service rejects.
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isAbsoluteUrl, parseYaml } from '@redocly/openapi-core';
import { Ajv2020, MissingRefError } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { isPlainObject, isReference, resolveNode } from './resolve-node.js';

/** @typedef {import('@redocly/openapi-core').Location} Location */
/** @typedef {import('@redocly/openapi-core').UserContext} UserContext */
/** @typedef {import('ajv').ValidateFunction} ValidateFunction */
/** @typedef {import('ajv').AnySchemaObject} AnySchemaObject */
/** @typedef {{ value: unknown, schemaLocation: Location, exampleLocation: Location }} ExampleTask */

// Each missing file costs one retry; a document with more files than this has a reference loop.
const MAXIMUM_FILE_LOADS = 256;
const MAXIMUM_ERRORS_SHOWN = 3;

/**
 * @param {string} absoluteRef
 * @returns {string}
 */
function toUri(absoluteRef) {
  return isAbsoluteUrl(absoluteRef) ? absoluteRef : pathToFileURL(absoluteRef).href;
}

/**
 * `file:///spec/openapi.yaml#/components/schemas/Stream` for a Redocly location.
 *
 * @param {Location} location
 * @returns {string}
 */
function toSchemaUri(location) {
  const segments = location.pointer.replace(/^#\/?/, '');
  const fragment = segments === '' ? '' : `#/${segments.split('/').map(encodeURIComponent).join('/')}`;
  return `${toUri(location.source.absoluteRef)}${fragment}`;
}

/**
 * Copies a document with its own file URI as the only `$id`: Redocly resolves relative refs against the file,
 * and Ajv resolves them against the nearest `$id` (without one it would use the referencing document's).
 *
 * @param {Record<string, unknown>} document
 * @param {string} uri
 * @returns {AnySchemaObject}
 */
function identifiedByUri(document, uri) {
  return { .../** @type {Record<string, unknown>} */ (withoutIds(document)), $id: uri };
}

/**
 * @param {unknown} node
 * @returns {unknown}
 */
function withoutIds(node) {
  if (Array.isArray(node)) return node.map(withoutIds);
  if (!isPlainObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === '$id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutIds(value)]),
  );
}

/**
 * @param {ValidateFunction} validate
 * @returns {string}
 */
function describeErrors(validate) {
  const errors = validate.errors ?? [];
  const shown = errors
    .slice(0, MAXIMUM_ERRORS_SHOWN)
    .map((error) => `${error.instancePath || '(root)'} ${error.message ?? error.keyword}`);
  const more =
    errors.length > MAXIMUM_ERRORS_SHOWN ? ` (and ${errors.length - MAXIMUM_ERRORS_SHOWN} more)` : '';
  return `${shown.join('; ')}${more}`;
}

function createValidatorCache() {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, logger: false });
  formatsModule.default(ajv);
  const registeredUris = new Set();
  /** @type {Map<string, ValidateFunction | string | undefined>} */
  const validators = new Map();

  /**
   * @param {string} uri
   * @param {unknown} document
   */
  function register(uri, document) {
    if (registeredUris.has(uri)) return;
    registeredUris.add(uri);
    if (isPlainObject(document)) ajv.addSchema(identifiedByUri(document, uri));
  }

  /**
   * @param {Location} schemaLocation
   * @returns {ValidateFunction | string | undefined} the validator; why the schema does not compile; or undefined
   *   when it refers to a file that cannot be read, which no-unresolved-refs reports
   */
  function compile(schemaLocation) {
    const schemaUri = toSchemaUri(schemaLocation);
    if (validators.has(schemaUri)) return validators.get(schemaUri);
    /** @type {ValidateFunction | string | undefined} */
    let result;
    for (let attempt = 0; attempt < MAXIMUM_FILE_LOADS; attempt++) {
      try {
        result = ajv.compile({ $ref: schemaUri });
        break;
      } catch (error) {
        if (error instanceof MissingRefError && loadFile(error.missingSchema)) continue;
        if (!(error instanceof MissingRefError))
          result = error instanceof Error ? error.message : String(error);
        break;
      }
    }
    validators.set(schemaUri, result);
    return result;
  }

  /**
   * A file the walker never reached (referenced only from inside a schema) is read from disk.
   *
   * @param {string} uri
   * @returns {boolean} whether something new was registered
   */
  function loadFile(uri) {
    if (registeredUris.has(uri) || !uri.startsWith('file:')) return false;
    try {
      register(uri, parseYaml(readFileSync(fileURLToPath(uri), 'utf8')));
      return true;
    } catch {
      return false;
    }
  }

  return { register, compile };
}

/** @type {import('@redocly/openapi-core').Oas3Rule} */
export function ExamplesValidate() {
  /** @type {Map<string, import('@redocly/openapi-core').Source>} */
  const sources = new Map();
  /** @type {Map<string, ExampleTask>} */
  const tasks = new Map();

  /**
   * @param {unknown} value
   * @param {Location} schemaLocation
   * @param {Location} exampleLocation
   */
  function addTask(value, schemaLocation, exampleLocation) {
    sources.set(schemaLocation.source.absoluteRef, schemaLocation.source);
    // One Example component can serve several schemas: the pair is the unit of work.
    tasks.set(`${exampleLocation.absolutePointer} ${schemaLocation.absolutePointer}`, {
      value,
      schemaLocation,
      exampleLocation,
    });
  }

  /**
   * Schema `examples` (array) and `example`, validated against the schema that holds them.
   *
   * @param {unknown} schema
   * @param {Location} schemaLocation
   */
  function collectSchemaExamples(schema, schemaLocation) {
    if (!isPlainObject(schema)) return;
    if (Array.isArray(schema.examples)) {
      schema.examples.forEach((example, index) => {
        addTask(example, schemaLocation, schemaLocation.child(['examples', index]));
      });
    }
    if ('example' in schema) addTask(schema.example, schemaLocation, schemaLocation.child(['example']));
  }

  /**
   * `example` and `examples[*].value` of a parameter, header or media type, validated against its `schema`.
   *
   * @param {unknown} holder
   * @param {Location} holderLocation
   * @param {UserContext} context
   */
  function collectHolderExamples(holder, holderLocation, context) {
    if (!isPlainObject(holder) || holder.schema === undefined) return;
    const schemaLocation = holderLocation.child(['schema']);
    if ('example' in holder) addTask(holder.example, schemaLocation, holderLocation.child(['example']));
    if (!isPlainObject(holder.examples)) return;
    for (const [name, exampleOrReference] of Object.entries(holder.examples)) {
      const example = resolveNode(exampleOrReference, holderLocation.child(['examples', name]), context);
      if (example === undefined || !isPlainObject(example.node) || !('value' in example.node)) continue;
      addTask(example.node.value, schemaLocation, example.location.child(['value']));
    }
  }

  return {
    ref: {
      enter(_reference, _context, resolved) {
        if (resolved.location) sources.set(resolved.location.source.absoluteRef, resolved.location.source);
      },
    },
    Schema: {
      enter(schema, context) {
        collectSchemaExamples(schema, context.location);
        // Examples written next to a $ref (OpenAPI 3.1) belong to the referencing schema, not its target.
        if (isReference(context.rawNode) && context.rawNode !== schema) {
          collectSchemaExamples(context.rawNode, context.rawLocation);
        }
      },
    },
    Parameter: {
      enter(parameter, context) {
        collectHolderExamples(parameter, context.location, context);
      },
    },
    Header: {
      enter(header, context) {
        collectHolderExamples(header, context.location, context);
      },
    },
    MediaType: {
      enter(mediaType, context) {
        collectHolderExamples(mediaType, context.location, context);
      },
    },
    Root: {
      leave(_root, context) {
        const validators = createValidatorCache();
        for (const source of sources.values()) {
          validators.register(toUri(source.absoluteRef), parseYaml(source.body));
        }
        for (const task of tasks.values()) {
          const validate = validators.compile(task.schemaLocation);
          if (validate === undefined) continue;
          if (typeof validate === 'string') {
            context.report({
              message: `Example cannot be checked: its schema does not compile (${validate}).`,
              location: task.exampleLocation,
            });
          } else if (!validate(task.value)) {
            context.report({
              message: `Example does not match its schema: ${describeErrors(validate)}.`,
              location: task.exampleLocation,
            });
          }
        }
      },
    },
  };
}
