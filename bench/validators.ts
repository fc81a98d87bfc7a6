// npx tsx bench/validators.ts — the generated standalone validator against Ajv compiling the same schema at run time.
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { validateCreateStreamBody } from '../generated/validators/index.js';
import { validateCreateStreamRequest } from '../generated/validators/standalone.js';
import { namedSchemaRef, validatorOptions } from '../generators/emitters/validators/compile.js';
import { corpus, type Payload, resolver } from '../generators/emitters/validators/testing/corpus.js';
import { repositoryModel } from '../generators/emitters/validators/testing/repository-model.js';
import { compareThroughput, formatThroughput } from './harness.js';

const schemaName = 'CreateStreamRequest';

/** The payloads in turn, one per call. */
function cycle(payloads: readonly Payload[]): () => unknown {
  let next = 0;
  return () => {
    next = (next + 1) % payloads.length;
    return payloads[next]?.value;
  };
}

export async function run(): Promise<string> {
  const model = await repositoryModel();
  const runtime = new Ajv2020({ ...validatorOptions });
  formats.default(runtime);
  for (const named of model.schemas) runtime.addSchema(named.schema, namedSchemaRef(named.name));
  const compiledNow = runtime.getSchema(namedSchemaRef(schemaName));
  const named = model.schemas.find((schema) => schema.name === schemaName);
  if (compiledNow === undefined || named === undefined) throw new Error(`the spec has no ${schemaName}`);
  const { valid, invalid } = corpus(named.schema, resolver(model));
  const reports = [
    ['valid', valid],
    ['invalid', invalid],
  ] as const;
  return reports
    .map(([kind, payloads]) => {
      const next = cycle(payloads);
      // One arrow per candidate, so that each call site stays monomorphic and none is favoured by shared feedback.
      const results = compareThroughput([
        { label: 'validateCreateStreamBody (typed, envelope)', run: () => validateCreateStreamBody(next()) },
        { label: 'standalone (generated)', run: () => validateCreateStreamRequest(next()) },
        { label: 'Ajv compiled at run time', run: () => compiledNow(next()) },
      ]);
      return formatThroughput(`${schemaName} body, ${payloads.length} ${kind} payload(s)`, results);
    })
    .join('\n\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
