import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';
import formats from 'ajv-formats';
import type { JsonObject } from '../../ir/json.js';
import type { NamedSchema } from '../../ir/model.js';
import type { Problem } from '../../problems.js';
import { compilableSchema } from './annotations.js';

/** Options of every validator: the first error only (it is the one the envelope reports), `x-` keywords allowed. */
export const validatorOptions = { strict: false, allErrors: false } as const satisfies Options;
/** Parameter sets arrive as strings and may leave out parameters that have defaults. */
export const parameterOptions = {
  ...validatorOptions,
  coerceTypes: true,
  useDefaults: true,
} as const satisfies Options;

/** One exported function of a standalone module. */
export interface CompileEntry {
  name: string;
  /** The schema to register, or null when `ref` names a schema already registered (a named schema). */
  schema: JsonObject | null;
  ref: string;
  origin: string;
}

/** The id a named schema is registered under: the very string every `$ref` in the IR uses. */
export function namedSchemaRef(name: string): string {
  return `#/components/schemas/${name}`;
}

/** Fragment-only, like named schemas' ids, so `#/components/...` references inside it resolve the same way. */
export function targetRef(name: string): string {
  return `#/validation-targets/${name}`;
}

const requireShim = [
  '// @ts-nocheck: generated JavaScript, typed by its .d.ts; checkJs would otherwise check the Ajv output.',
  "import { createRequire } from 'node:module';",
  '',
  "// Ajv's standalone code loads its runtime helpers with require(), which an ES module does not have.",
  'const require = createRequire(import.meta.url);',
].join('\n');

function attempt(problems: Problem[], origin: string, action: () => unknown): boolean {
  try {
    action();
    return true;
  } catch (error) {
    const [file = '', pointer = ''] = origin.split('#');
    const message = `cannot compile a validator: ${error instanceof Error ? error.message : String(error)}`;
    problems.push({ severity: 'error', file, pointer, message, rule: 'validators/compile' });
    return false;
  }
}

/**
 * Ajv's standalone ES module for the entries, every named schema registered so references resolve. Runs at
 * generation time only: nothing is compiled when the generated code runs.
 */
export function standaloneModule(
  namedSchemas: readonly NamedSchema[],
  entries: readonly CompileEntry[],
  options: Options,
  problems: Problem[],
): string {
  const ajv = new Ajv2020({ ...options, code: { source: true, esm: true, lines: true } });
  formats.default(ajv);
  for (const named of namedSchemas) {
    attempt(problems, named.origin, () =>
      ajv.addSchema(compilableSchema(named.schema), namedSchemaRef(named.name)),
    );
  }
  const exported: Record<string, string> = {};
  for (const entry of entries) {
    const { schema } = entry;
    const compiled = attempt(problems, entry.origin, () => {
      if (schema !== null) ajv.addSchema(schema, entry.ref);
      if (ajv.getSchema(entry.ref) === undefined) throw new Error(`${entry.ref} is not registered`);
    });
    if (compiled) exported[entry.name] = entry.ref;
  }
  const code = standalone.default(ajv, exported).replace(/^"use strict";\s*/, '');
  return `${requireShim}\n\n${code}`;
}
