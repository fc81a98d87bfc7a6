import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  assertionFrom,
  type CompiledValidator,
  errorDetailFromAjv,
  errorDetailFromAjvErrors,
  type FailureCodes,
  guardFrom,
  parameterPath,
  parameterValidatorFrom,
  ValidationFailed,
  validatorFrom,
} from './ajv-errors.js';
import { jsonIntegerPattern, jsonNumberPattern } from './number-forms.js';

// Codes of no particular spec: generated code passes the ones of its error catalogue.
const codes: FailureCodes = {
  missingParameter: { type: 'request', code: 'missing' },
  invalidParameter: { type: 'request', code: 'invalid' },
  unknownParameter: { type: 'request', code: 'unknown' },
};

function ajvError(
  keyword: string,
  instancePath: string,
  params: Record<string, unknown> = {},
  extra: Partial<ErrorObject> = {},
): ErrorObject {
  return { keyword, instancePath, schemaPath: `#/${keyword}`, params, message: 'must be fine', ...extra };
}

describe('errorDetailFromAjv', () => {
  it.each([
    ['required (root)', ajvError('required', '', { missingProperty: 'title' }), 'missing', 'title'],
    [
      'required (nested)',
      ajvError('required', '/metadata', { missingProperty: 'site' }),
      'missing',
      'metadata.site',
    ],
    [
      'required (array item)',
      ajvError('required', '/samples/3', { missingProperty: 'ts' }),
      'missing',
      'samples.3.ts',
    ],
    [
      'dependentRequired',
      ajvError('dependentRequired', '', { missingProperty: 'b', property: 'a' }),
      'missing',
      'b',
    ],
    [
      'additionalProperties',
      ajvError('additionalProperties', '', { additionalProperty: 'colour' }),
      'unknown',
      'colour',
    ],
    [
      'unevaluatedProperties (nested)',
      ajvError('unevaluatedProperties', '/a', { unevaluatedProperty: 'b' }),
      'unknown',
      'a.b',
    ],
    ['maxLength', ajvError('maxLength', '/title', { limit: 3 }), 'invalid', 'title'],
    ['maxProperties', ajvError('maxProperties', '/metadata', { limit: 2 }), 'invalid', 'metadata'],
    ['escaped pointer', ajvError('type', '/a~1b/c~0d', { type: 'string' }), 'invalid', 'a/b.c~d'],
    [
      'propertyNames',
      ajvError('maxLength', '/metadata', { limit: 2 }, { propertyName: 'key' }),
      'invalid',
      'metadata.key',
    ],
  ])('%s', (_name, error, code, param) => {
    expect(errorDetailFromAjv(error, codes)).toEqual({
      type: 'request',
      code,
      param,
      message: expect.stringContaining(param),
    });
  });

  it('leaves param out when the whole value is at fault', () => {
    expect(errorDetailFromAjv(ajvError('type', '', { type: 'object' }), codes)).toEqual({
      type: 'request',
      code: 'invalid',
      message: 'Invalid value: must be fine.',
    });
    expect(errorDetailFromAjv(undefined, codes)).toEqual({
      type: 'request',
      code: 'invalid',
      message: 'Invalid value.',
    });
  });

  it.each([
    [
      'enum',
      [ajvError('enum', '/status', { allowedValues: ['idle', 'live'] })],
      'Invalid status: must be one of "idle", "live".',
    ],
    ['const', [ajvError('const', '/kind', { allowedValue: 'account' })], 'Invalid kind: must be "account".'],
    [
      'oneOf of consts',
      [
        ajvError('const', '/events/0', { allowedValue: 'device.online' }),
        ajvError('const', '/events/0', { allowedValue: 'device.offline' }),
        ajvError('oneOf', '/events/0', { passingSchemas: null }),
      ],
      'Invalid events.0: must be one of "device.online", "device.offline".',
    ],
    [
      'oneOf of objects (first branch named as before)',
      [
        ajvError('required', '', { missingProperty: 'code' }),
        ajvError('const', '/grant_type', { allowedValue: 'refresh_token' }),
        ajvError('oneOf', '', { passingSchemas: null }),
      ],
      'Missing required parameter: code.',
    ],
    [
      'pattern',
      [ajvError('pattern', '/streamId', { pattern: '^stm_[a-z]+$' })],
      'Invalid streamId: must match the pattern ^stm_[a-z]+$.',
    ],
    [
      'a JSON integer pattern (x-parameter-values.numbers)',
      [ajvError('pattern', '/limit', { pattern: jsonIntegerPattern })],
      'Invalid limit: must be an integer written in decimal digits, as JSON writes it.',
    ],
    [
      'a JSON number pattern',
      [ajvError('pattern', '/ratio', { pattern: jsonNumberPattern })],
      'Invalid ratio: must be a number written as JSON writes it.',
    ],
  ])('names the field and what it allows (%s; issue 12, item 14)', (_name, errors, message) => {
    expect(errorDetailFromAjvErrors(errors, codes).message).toBe(message);
  });

  it('writes a readable message', () => {
    expect(errorDetailFromAjv(ajvError('required', '', { missingProperty: 'title' }), codes).message).toBe(
      'Missing required parameter: title.',
    );
  });
});

/** A stand-in for a standalone function: objects with `name` pass; numeric strings become numbers, as coercion does. */
const compiled: CompiledValidator = Object.assign(
  (value: unknown) => {
    const fields = value as Record<string, unknown>;
    if (typeof fields.limit === 'string') fields.limit = Number(fields.limit);
    const valid = typeof fields.name === 'string';
    compiled.errors = valid ? null : [ajvError('required', '', { missingProperty: 'name' })];
    return valid;
  },
  { errors: null },
);

describe('wrappers', () => {
  it('returns the value or the detail', () => {
    const validate = validatorFrom<{ name: string }>(compiled, codes);
    expect(validate({ name: 'a' })).toEqual({ ok: true, value: { name: 'a' } });
    expect(validate({})).toEqual(
      expect.objectContaining({
        ok: false,
        error: expect.objectContaining({ code: 'missing', param: 'name' }),
      }),
    );
  });

  it("builds a failure's detail on first read, from the errors of its own call", () => {
    const validate = validatorFrom<{ name: string }>(compiled, codes);
    const failed = validate({});
    compiled.errors = [ajvError('additionalProperties', '', { additionalProperty: 'later' })];
    if (failed.ok) throw new Error('an object without name must fail');
    expect(failed.error).toEqual({
      type: 'request',
      code: 'missing',
      param: 'name',
      message: 'Missing required parameter: name.',
    });
    expect(failed.error).toBe(failed.error);
    expect(JSON.parse(JSON.stringify(failed))).toEqual({ ok: false, error: failed.error });
  });

  it('validates parameter sets on a copy', () => {
    const query = { name: 'a', limit: '5' };
    expect(parameterValidatorFrom(compiled, codes)(query)).toEqual({
      ok: true,
      value: { name: 'a', limit: 5 },
    });
    expect(query.limit).toBe('5');
  });

  it('guards and asserts', () => {
    expect(guardFrom<{ name: string }>(compiled)({ name: 'a' })).toBe(true);
    expect(guardFrom<{ name: string }>(compiled)({})).toBe(false);
    const assertNamed = assertionFrom<{ name: string }>(compiled, codes);
    expect(() => assertNamed({ name: 'a' })).not.toThrow();
    expect(() => assertNamed({})).toThrow(ValidationFailed);
    expect(() => assertNamed({})).toThrow('Missing required parameter: name.');
  });

  it('names the path like the envelope does', () => {
    expect([parameterPath(''), parameterPath('', 'a'), parameterPath('/x/0', 'y')]).toEqual([
      '',
      'a',
      'x.0.y',
    ]);
  });
});
