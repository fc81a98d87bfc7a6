import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import * as generated from '../../../generated/validators/standalone.js';
import type { CompiledValidator } from '../../../runtime/ajv-errors.js';
import { namedSchemaRef, validatorOptions } from './compile.js';
import { planValidators } from './targets.js';
import { corpus, type Payload, resolver } from './testing/corpus.js';
import { repositoryModel } from './testing/repository-model.js';

// Two implementations, one expectation: the committed standalone code against Ajv compiling the IR's schemas now,
// annotations and all, with the same options.
const model = await repositoryModel();
const resolve = resolver(model);
const runtime = new Ajv2020({ ...validatorOptions });
formats.default(runtime);
for (const named of model.schemas) runtime.addSchema(named.schema, namedSchemaRef(named.name));
const standalone: Record<string, CompiledValidator | undefined> = generated;

function verdicts(validate: CompiledValidator, payloads: readonly Payload[]) {
  return payloads.map(({ label, value }) => {
    const valid = validate(value);
    const error = valid ? null : validate.errors?.[0];
    return { label, valid, keyword: error?.keyword, instancePath: error?.instancePath };
  });
}

describe('standalone validators agree with runtime-compiled Ajv (real spec)', () => {
  it.each(planValidators(model).guards.map((guard) => [guard.schema.name, guard] as const))(
    '%s',
    (name, guard) => {
      const compiled = standalone[guard.validateName];
      const reference = runtime.getSchema(namedSchemaRef(name));
      if (compiled === undefined || reference === undefined) throw new Error(`no validator for ${name}`);
      const { valid, invalid } = corpus(guard.schema.schema, resolve);
      const payloads = [...valid, ...invalid];
      const results = verdicts(compiled, payloads);
      expect(results).toEqual(verdicts(reference, payloads));
      expect(results.slice(0, valid.length).filter((result) => !result.valid)).toEqual([]);
      if (invalid.length > 0) expect(results.slice(valid.length).some((result) => !result.valid)).toBe(true);
    },
  );
});
