// @ts-check
// telemetry/inferred-reason: every `x-inferred` and `x-erratum` carries a real reason, so the conformance
// catalogue can quote why an element is not in the interface document.
import { isPlainObject } from './resolve-node.js';

/** @typedef {import('@redocly/openapi-core').Location} Location */
/** @typedef {import('@redocly/openapi-core').UserContext} UserContext */

const ANNOTATION_KEYS = ['x-inferred', 'x-erratum'];
const DEFAULT_MINIMUM_LENGTH = 15;
// A text made only of these words says nothing ("TODO: inferred", "reason TBD", "see above").
const DEFAULT_PLACEHOLDER_WORDS = [
  'todo',
  'tbd',
  'tba',
  'fixme',
  'xxx',
  'wip',
  'inferred',
  'infer',
  'erratum',
  'errata',
  'placeholder',
  'reason',
  'unknown',
  'none',
  'n',
  'a',
  'na',
  'see',
  'above',
  'below',
  'later',
  'here',
  'goes',
  'fill',
  'in',
  'lorem',
  'ipsum',
  'dolor',
  'same',
  'as',
];

/**
 * @param {unknown} value
 * @param {number} minimumLength
 * @param {Set<string>} placeholderWords
 * @returns {string | undefined} why the value is not a usable reason
 */
function findReasonDefect(value, minimumLength, placeholderWords) {
  if (typeof value !== 'string') return `must be a string giving the reason, not ${JSON.stringify(value)}`;
  const text = value.trim();
  if (text.length === 0) return 'is empty';
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  if (words.every((word) => placeholderWords.has(word)))
    return `only repeats a placeholder (${JSON.stringify(text)})`;
  if (text.length < minimumLength)
    return `is ${text.length} characters long; give a reason of at least ${minimumLength}`;
  return undefined;
}

/** @type {import('@redocly/openapi-core').Oas3Rule} */
export function InferredReason(options) {
  const minimumLength = typeof options.minLength === 'number' ? options.minLength : DEFAULT_MINIMUM_LENGTH;
  const extraWords = Array.isArray(options.placeholderWords) ? options.placeholderWords.map(String) : [];
  const placeholderWords = new Set([
    ...DEFAULT_PLACEHOLDER_WORDS,
    ...extraWords.map((word) => word.toLowerCase()),
  ]);
  // One node can be walked as more than one type; report each annotation once.
  const reportedPointers = new Set();

  /**
   * @param {Record<string, unknown>} node
   * @param {Location} location
   * @param {UserContext['report']} report
   */
  function checkAnnotations(node, location, report) {
    for (const [key, value] of Object.entries(node)) {
      if (ANNOTATION_KEYS.includes(key)) {
        const valueLocation = location.child([key]);
        const defect = findReasonDefect(value, minimumLength, placeholderWords);
        if (defect !== undefined && !reportedPointers.has(valueLocation.absolutePointer)) {
          reportedPointers.add(valueLocation.absolutePointer);
          report({ message: `\`${key}\` ${defect}.`, location: valueLocation });
        }
      } else if (key.startsWith('x-')) {
        // The walker does not descend into extension values, so nested extension objects are checked here.
        checkExtensionValue(value, location.child([key]), report);
      }
    }
  }

  /**
   * @param {unknown} value
   * @param {Location} location
   * @param {UserContext['report']} report
   */
  function checkExtensionValue(value, location, report) {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        checkExtensionValue(item, location.child([index]), report);
      });
    } else if (isPlainObject(value)) {
      checkAnnotations(value, location, report);
      for (const [key, child] of Object.entries(value)) {
        if (!key.startsWith('x-')) checkExtensionValue(child, location.child([key]), report);
      }
    }
  }

  return {
    any: {
      enter(node, context) {
        if (isPlainObject(node)) checkAnnotations(node, context.location, context.report);
      },
    },
  };
}
