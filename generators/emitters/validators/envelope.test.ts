import { describe, expect, it } from 'vitest';
import { errorCodes, errorRoles } from '../../../generated/types/errors.js';
import {
  assertStream,
  isStream,
  validateCreateRecordBody,
  validateCreateStreamBody,
  validateListReportsQuery,
} from '../../../generated/validators/index.js';
import { ValidationFailed } from '../../../runtime/ajv-errors.js';
import { repositoryModel, schemaNamed } from './testing/repository-model.js';

// Real cases through the generated validators of the repository's spec. Limits are read from the model and codes from
// the generated catalogue, so the test states behaviour, not spec facts.
const model = await repositoryModel();
const numberAt = (schema: Record<string, unknown>, keyword: string): number => Number(schema[keyword]);
const titleLimit = numberAt(schemaNamed(model, 'Title'), 'maxLength');
const metadataLimit = numberAt(schemaNamed(model, 'Metadata'), 'maxProperties');
const limitSchema = model.operations
  .find((operation) => operation.id === 'listReports')
  ?.parameters.find((parameter) => parameter.name === 'limit')?.schema;
const limit = typeof limitSchema === 'object' ? limitSchema : {};

function failure(role: keyof typeof errorRoles, param: string) {
  const code = errorRoles[role];
  // The failure's `error` is a getter on its prototype (built on first read), so the result is matched by property.
  return expect.objectContaining({
    ok: false,
    error: expect.objectContaining({ type: errorCodes[code].type, code, param }),
  });
}

const sample = { ts: 1, values: { rpm: 1 } };
const keys = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`key${index}`, 'v']));

describe('validators map failures to the error envelope (real spec)', () => {
  it.each([
    ['body without title', validateCreateStreamBody, {}, failure('missingParameter', 'title')],
    [
      'title too long',
      validateCreateStreamBody,
      { title: 'x'.repeat(titleLimit + 1) },
      failure('invalidParameter', 'title'),
    ],
    [
      'metadata with too many keys',
      validateCreateStreamBody,
      { title: 't', metadata: keys(metadataLimit + 1) },
      failure('invalidParameter', 'metadata'),
    ],
    [
      'metadata value of the wrong type',
      validateCreateStreamBody,
      { title: 't', metadata: { site: 3 } },
      failure('invalidParameter', 'metadata.site'),
    ],
    [
      'unknown field',
      validateCreateStreamBody,
      { title: 't', colour: 'red' },
      failure('unknownParameter', 'colour'),
    ],
    [
      'nested missing field',
      validateCreateRecordBody,
      { samples: [sample, sample, sample, { values: {} }] },
      failure('missingParameter', 'samples.3.ts'),
    ],
    [
      'limit under its minimum',
      validateListReportsQuery,
      { limit: String(numberAt(limit, 'minimum') - 1) },
      failure('invalidParameter', 'limit'),
    ],
    [
      'limit over its maximum',
      validateListReportsQuery,
      { limit: String(numberAt(limit, 'maximum') + 1) },
      failure('invalidParameter', 'limit'),
    ],
    [
      'unknown query parameter',
      validateListReportsQuery,
      { limitt: '5' },
      failure('unknownParameter', 'limitt'),
    ],
  ] as const)('%s', (_name, validate, value, want) => {
    expect(validate(value)).toEqual(want);
  });

  it('coerces query strings and fills in defaults on a copy', () => {
    const query = { limit: String(numberAt(limit, 'default')) };
    expect(validateListReportsQuery(query)).toEqual({ ok: true, value: { limit: limit.default } });
    expect(query).toEqual({ limit: String(limit.default) });
    expect(validateListReportsQuery({})).toEqual({ ok: true, value: { limit: limit.default } });
  });

  it('never coerces bodies', () => {
    expect(validateCreateStreamBody({ title: 7 })).toEqual(failure('invalidParameter', 'title'));
  });

  it('guards narrow and assertions throw the detail', () => {
    expect(isStream({})).toBe(false);
    let thrown: unknown;
    try {
      assertStream({ id: 'stm_1' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationFailed);
    expect(thrown instanceof ValidationFailed && thrown.detail.code).toBe(errorRoles.missingParameter);
  });
});
