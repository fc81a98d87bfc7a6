import type { ErrorObject } from 'ajv';
import type { ErrorDetail } from './error-envelope.js';
import { numberFormRequirement } from './number-forms.js';
import type { ValidationResult, Validator } from './validation-result.js';

/** One function of Ajv's standalone code: a verdict, and on failure the errors on the function itself. */
export interface CompiledValidator {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null | undefined;
}

export interface FailureCode {
  type: string;
  code: string;
}

/** The codes a failed validation answers with; generated code takes them from the spec's error catalogue. */
export interface FailureCodes {
  missingParameter: FailureCode;
  invalidParameter: FailureCode;
  unknownParameter: FailureCode;
}

export type Assertion<T> = (value: unknown) => asserts value is T;

/** Thrown by the generated `assertX` functions; `detail` is what the API would answer with. */
export class ValidationFailed extends Error {
  constructor(readonly detail: ErrorDetail) {
    super(detail.message);
    this.name = 'ValidationFailed';
  }
}

function decodeToken(token: string): string {
  return token.includes('~') ? token.replaceAll('~1', '/').replaceAll('~0', '~') : token;
}

/** `/samples/3/ts` plus an optional child becomes `samples.3.ts`: the way `param` names a field. */
export function parameterPath(instancePath: string, child?: string): string {
  let path = '';
  if (instancePath !== '') {
    // Escaped tokens are rare; without them the pointer needs no splitting (this runs on every invalid request).
    path = instancePath.includes('~')
      ? instancePath.slice(1).split('/').map(decodeToken).join('.')
      : instancePath.slice(1).replaceAll('/', '.');
  }
  if (child === undefined) return path;
  return path === '' ? child : `${path}.${child}`;
}

/** The property a keyword names as missing or unknown; the keyword is read first so `params` is looked up once. */
function namedProperty(error: ErrorObject): { property: string; missing: boolean } | undefined {
  let name: unknown;
  let missing = false;
  switch (error.keyword) {
    case 'required':
    case 'dependentRequired':
      name = error.params.missingProperty;
      missing = true;
      break;
    case 'additionalProperties':
      name = error.params.additionalProperty;
      break;
    case 'unevaluatedProperties':
      name = error.params.unevaluatedProperty;
      break;
    default:
      return undefined;
  }
  return typeof name === 'string' ? { property: name, missing } : undefined;
}

// Literal objects, not spreads: V8 clones a spread object on a slow path that costs more than the validation.
function detail(failure: FailureCode, message: string, param: string): ErrorDetail {
  const { type, code } = failure;
  return param === '' ? { type, code, message } : { type, code, message, param };
}

function quoted(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

/** The values an `enum` or `const` error allows, or undefined for other keywords. */
function allowedValuesOf(error: ErrorObject): unknown[] | undefined {
  if (error.keyword === 'enum' && Array.isArray(error.params.allowedValues))
    return error.params.allowedValues;
  if (error.keyword === 'const') return [error.params.allowedValue];
  return undefined;
}

/**
 * A `oneOf`/`anyOf` of `const`s (an enum whose members carry descriptions) fails with one error per member, then the
 * combinator's: read together they say which values are allowed, where the first alone would name one member.
 */
function alternativesOf(errors: readonly ErrorObject[]): unknown[] | undefined {
  const first = errors[0];
  if (first === undefined || allowedValuesOf(first) === undefined) return undefined;
  const values: unknown[] = [];
  for (const error of errors) {
    if (error.instancePath !== first.instancePath) return undefined;
    if (error.keyword === 'oneOf' || error.keyword === 'anyOf') return values;
    const allowed = allowedValuesOf(error);
    if (allowed === undefined) return undefined;
    values.push(...allowed);
  }
  return undefined;
}

/** What a value failing `error` should be, in words a person can act on. */
function requirementOf(error: ErrorObject, alternatives: unknown[] | undefined): string {
  const allowed = alternatives ?? allowedValuesOf(error);
  if (allowed !== undefined)
    return allowed.length === 1 ? `must be ${quoted(allowed)}` : `must be one of ${quoted(allowed)}`;
  if (error.keyword === 'pattern')
    return (
      numberFormRequirement(error.params.pattern) ?? `must match the pattern ${String(error.params.pattern)}`
    );
  return error.message ?? 'breaks its schema';
}

/**
 * The envelope detail for a failed validation from Ajv's errors (validators run with `allErrors: false`, so the first
 * error is the one that stopped it; a failed `oneOf` of `const`s lists its members first).
 */
export function errorDetailFromAjvErrors(
  errors: readonly ErrorObject[] | null | undefined,
  codes: FailureCodes,
  given?: object,
): ErrorDetail {
  const first = errors?.[0];
  const repeated = first === undefined || given === undefined ? undefined : repeatedParameter(first, given);
  if (repeated !== undefined)
    return detail(
      codes.invalidParameter,
      `Invalid ${repeated.name}: must be given once, not ${repeated.times} times.`,
      repeated.name,
    );
  return errorDetailFromAjv(first, codes, alternativesOf(errors ?? []));
}

/**
 * A parameter of a set that failed on its type because it was given more than once: a query parser makes a repeated
 * parameter an array, which a schema of one value then calls "must be integer" or "must be string".
 */
function repeatedParameter(error: ErrorObject, given: object): { name: string; times: number } | undefined {
  if (error.keyword !== 'type' || error.instancePath.lastIndexOf('/') !== 0) return undefined;
  const name = decodeToken(error.instancePath.slice(1));
  const value: unknown = Object.hasOwn(given, name) ? (given as Record<string, unknown>)[name] : undefined;
  return Array.isArray(value) ? { name, times: value.length } : undefined;
}

/** The envelope detail for one Ajv error; `alternatives` are the values a failed `oneOf` of `const`s allows. */
export function errorDetailFromAjv(
  error: ErrorObject | undefined,
  codes: FailureCodes,
  alternatives?: unknown[],
): ErrorDetail {
  if (error === undefined) return detail(codes.invalidParameter, 'Invalid value.', '');
  const named = namedProperty(error);
  if (named !== undefined) {
    const param = parameterPath(error.instancePath, named.property);
    return named.missing
      ? detail(codes.missingParameter, `Missing required parameter: ${param}.`, param)
      : detail(codes.unknownParameter, `Received unknown parameter: ${param}.`, param);
  }
  // A failing key under propertyNames is named by the key itself, so the caller sees which one.
  const param = parameterPath(error.instancePath, error.propertyName);
  const subject = param === '' ? 'Invalid value' : `Invalid ${param}`;
  return detail(codes.invalidParameter, `${subject}: ${requirementOf(error, alternatives)}.`, param);
}

/**
 * A failed validation whose `error` is built on first read from Ajv's errors of that call (Ajv gives each call a new
 * array): a caller that only branches on `ok`, or a flood of invalid requests, does not pay for the message. `error`
 * lives on the prototype, so `JSON.stringify` goes through `toJSON` and a spread copy (`{ ...result }`) has no `error`.
 */
export class AjvValidationFailure {
  readonly ok = false;
  readonly #errors: CompiledValidator['errors'];
  readonly #codes: FailureCodes;
  /** A parameter set as it was given, before coercion: it tells a repeated parameter from a wrong type. */
  readonly #given: object | undefined;
  #detail: ErrorDetail | undefined;

  constructor(errors: CompiledValidator['errors'], codes: FailureCodes, given?: object) {
    this.#errors = errors;
    this.#codes = codes;
    this.#given = given;
  }

  get error(): ErrorDetail {
    // Read through the prototype (a deep-equality helper walking it), there is no call to describe.
    if (!(#codes in this)) return undefined as never;
    this.#detail ??= errorDetailFromAjvErrors(this.#errors, this.#codes, this.#given);
    return this.#detail;
  }

  toJSON(): { ok: false; error: ErrorDetail } {
    return { ok: false, error: this.error };
  }
}

export function validatorFrom<T>(compiled: CompiledValidator, codes: FailureCodes): Validator<T> {
  return (value: unknown): ValidationResult<T> =>
    compiled(value) ? { ok: true, value: value as T } : new AjvValidationFailure(compiled.errors, codes);
}

/**
 * For parameter sets, whose validators coerce strings and fill in defaults: they work on a copy, so the caller's
 * object (a framework's parsed query) is left as it was and the coerced value is the one returned. A failure keeps the
 * object as given, so a parameter given twice is named as such rather than as a wrong type.
 */
export function parameterValidatorFrom<T>(compiled: CompiledValidator, codes: FailureCodes): Validator<T> {
  return (value: unknown): ValidationResult<T> => {
    const given = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
    const copy = given === undefined ? value : { ...given };
    return compiled(copy)
      ? { ok: true, value: copy as T }
      : new AjvValidationFailure(compiled.errors, codes, given);
  };
}

export function guardFrom<T>(compiled: CompiledValidator): (value: unknown) => value is T {
  return (value: unknown): value is T => compiled(value);
}

export function assertionFrom<T>(compiled: CompiledValidator, codes: FailureCodes): Assertion<T> {
  return (value: unknown): asserts value is T => {
    if (!compiled(value)) throw new ValidationFailed(errorDetailFromAjvErrors(compiled.errors, codes));
  };
}
