// @ts-check
// Redocly plugin with the telemetry spec conventions; redocly.yaml loads it and sets each rule's severity.
import { ErrorEnvelope } from './error-envelope.js';
import { ExamplesValidate } from './examples-validate.js';
import { IdPrefixPattern } from './id-prefix-pattern.js';
import { InferredReason } from './inferred-reason.js';

/** @returns {import('@redocly/openapi-core').Plugin} */
export default function plugin() {
  return {
    id: 'telemetry',
    rules: {
      oas3: {
        'error-envelope': ErrorEnvelope,
        'id-prefix-pattern': IdPrefixPattern,
        'inferred-reason': InferredReason,
        'examples-validate': ExamplesValidate,
      },
    },
  };
}
