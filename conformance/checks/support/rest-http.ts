// Requests by operation id (paths from the generated route table) and assertions on their answers with the
// generated validators, each failure carrying the exchange as evidence.
import { routes } from '../../../generated/server/routes.js';
import { errorCodes } from '../../../generated/types/errors.js';
import { schemaPatterns } from '../../../generated/types/facts.js';
import * as validators from '../../../generated/validators/index.js';
import type { Validator } from '../../../runtime/validation-result.js';
import { expectThat } from '../../harness/check.js';
import { type Exchange, type SendOptions, send } from '../../harness/probe.js';
import { errorEnvelopeVerdict } from './error-envelope.js';
import { noteAnswer } from './rest-check.js';
import { inferredCodeRequirement, judgesInferred } from './rest-requirements.js';

export type OperationId = keyof typeof routes;
export type ErrorCode = keyof typeof errorCodes;
export type PathParameters = Readonly<Record<string, string>>;

/** The REST operations of `{base_url}` (the OAuth endpoints live on `{auth_url}`). */
export const restOperations: readonly OperationId[] = (Object.keys(routes) as OperationId[])
  .filter((operationId) => routes[operationId].serverUrl === null)
  .sort();

/** The names of an operation's path parameters, in path order (`reportId`, `recordId`). */
export function pathParameterNames(operationId: OperationId): string[] {
  return [...routes[operationId].url.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1] ?? '');
}

export function pathOf(operationId: OperationId, parameters: PathParameters = {}): string {
  return routes[operationId].url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = parameters[name];
    if (value === undefined) throw new Error(`${operationId} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/**
 * Sends an operation's request (method and path from the route table). Under the documented profile a target without
 * the operation, where the spec inferred it, skips the running check (see rest-check.ts).
 */
export async function call(
  operationId: OperationId,
  parameters: PathParameters = {},
  options: SendOptions = {},
): Promise<Exchange> {
  const exchange = await callUnjudged(operationId, parameters, options);
  noteAnswer(operationId, exchange);
  return exchange;
}

/** Like `call`, leaving the missing-operation skip to the check that later judges the answer (`noteAnswer`). */
export function callUnjudged(
  operationId: OperationId,
  parameters: PathParameters = {},
  options: SendOptions = {},
): Promise<Exchange> {
  return send(routes[operationId].method, pathOf(operationId, parameters), options);
}

function pascal(name: string): string {
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** The generated validator of an operation's response with this status, or undefined when the spec has none. */
export function responseValidator(operationId: OperationId, status: number): Validator<unknown> | undefined {
  const candidate: unknown = (validators as Record<string, unknown>)[
    `validate${pascal(operationId)}Response${status}`
  ];
  return typeof candidate === 'function' ? (candidate as Validator<unknown>) : undefined;
}

/** Asserts the status, then that the body is valid against the spec's schema for it; returns the typed body. */
export function expectValid<T>(validator: Validator<T>, exchange: Exchange, status: number, what: string): T {
  expectThat(exchange.response.status === status, `${what}: status ${status}`, exchange);
  const verdict = validator(exchange.response.body);
  expectThat(
    verdict.ok,
    `${what}: a body valid against the spec's ${status} schema (${verdict.ok ? '' : `${verdict.error.param ?? 'body'}: ${verdict.error.message}`})`,
    exchange,
  );
  return verdict.value;
}

/** Like expectValid, with the validator looked up by operation id and status (a status the spec lists). */
export function expectOperationResponse(
  operationId: OperationId,
  exchange: Exchange,
  status: number,
): unknown {
  const validator = responseValidator(operationId, status);
  expectThat(validator !== undefined, `${operationId} to document status ${status}`, exchange);
  return expectValid(validator, exchange, status, operationId);
}

export interface ListPage<Item> {
  data: Item[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * A list page valid against its operation's 200 schema. The generated list types leave `data` unknown (the item
 * schema sits beside an allOf); the validator has checked every item against it, so the items are typed here.
 */
export function expectListPage<Item>(operationId: OperationId, exchange: Exchange): ListPage<Item> {
  return expectOperationResponse(operationId, exchange, 200) as ListPage<Item>;
}

export interface ExpectedError {
  code: ErrorCode;
  /** The dot path `param` names; null when the envelope must leave it out; undefined to not judge it. */
  param?: string | null;
}

function errorFields(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object') return {};
  const error = (body as Record<string, unknown>).error;
  return error !== null && typeof error === 'object' ? (error as Record<string, unknown>) : {};
}

/**
 * Asserts an error answer: the code's status and type, a body valid as the envelope, the code itself, and `param`.
 * Under the documented profile only what the document states is judged: an inferred code is not compared, `param`
 * is not required to be absent, and a nested `param` need only name its top-level field (the dot path is inferred).
 */
export function expectError(exchange: Exchange, expected: ExpectedError, operationId?: OperationId): void {
  const entry = errorCodes[expected.code];
  const strict = judgesInferred();
  expectThat(exchange.response.status === entry.status, `status ${entry.status}`, exchange);
  if (strict) {
    // The operation's own schema for the status where it lists one; any operation's envelope schema otherwise.
    const validator =
      (operationId === undefined ? undefined : responseValidator(operationId, entry.status)) ??
      validators.validateGetStreamResponse404;
    const verdict = validator(exchange.response.body);
    expectThat(
      verdict.ok,
      `the error envelope (${verdict.ok ? '' : `${verdict.error.param ?? 'body'}: ${verdict.error.message}`})`,
      exchange,
    );
  } else {
    // The document's envelope: type, code, message and requestId, all strings (the code list and id format are inferred).
    const verdict = errorEnvelopeVerdict(exchange.response.body);
    expectThat(verdict.ok, `the error envelope (${verdict.ok ? '' : verdict.why})`, exchange);
  }
  const error = errorFields(exchange.response.body);
  expectThat(error.type === entry.type, `type ${entry.type}`, exchange);
  if (strict || inferredCodeRequirement(expected.code) === undefined)
    expectThat(error.code === expected.code, `code ${expected.code}`, exchange);
  if (expected.param === undefined) return;
  if (expected.param === null) {
    if (strict) expectThat(!('param' in error), 'no param (no single parameter is at fault)', exchange);
    return;
  }
  const wanted = expected.param;
  if (strict || !wanted.includes('.')) expectThat(error.param === wanted, `param ${wanted}`, exchange);
  else {
    const [field = wanted] = wanted.split('.');
    expectThat(
      typeof error.param === 'string' && (error.param === field || error.param.startsWith(`${field}.`)),
      `param naming ${field}`,
      exchange,
    );
  }
}

/** The status, type, code and param of an error answer: what tells one kind of refusal from another. */
export function errorShape(exchange: Exchange): string {
  const error = errorFields(exchange.response.body);
  return JSON.stringify([exchange.response.status, error.type, error.code, error.param ?? null]);
}

function prefixOf(pattern: string): string {
  const match = /^\^([A-Za-z]+_)/.exec(pattern);
  if (match?.[1] === undefined) throw new Error(`no literal prefix in ${pattern}`);
  return match[1];
}

/** The id pattern of a path parameter (`streamId` → the StreamId pattern). */
export function idPatternOf(parameterName: string): string {
  const pattern = (schemaPatterns as Record<string, string>)[pascal(parameterName)];
  if (pattern === undefined) throw new Error(`no id pattern for ${parameterName}`);
  return pattern;
}

/** A well-formed id of the parameter's kind that names nothing (fixed, so every run sends the same requests). */
export function missingId(parameterName: string): string {
  const id = `${prefixOf(idPatternOf(parameterName))}ConformanceMissing0000000000`;
  if (!new RegExp(idPatternOf(parameterName)).test(id)) throw new Error(`${id} does not match its pattern`);
  return id;
}

export function header(exchange: Exchange, name: string): string | undefined {
  return exchange.response.headers[name.toLowerCase()];
}

/** The path of an absolute URL of the target (reportUrl) relative to `{base_url}`, or null when it is elsewhere. */
export function pathUnder(baseUrl: string, url: string): string | null {
  const base = baseUrl.replace(/\/+$/, '');
  return url.startsWith(`${base}/`) ? url.slice(base.length) : null;
}
