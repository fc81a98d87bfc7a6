// Assertions over error answers of the API and the token endpoint, with the failing exchange as evidence.
import { errorCodes, errorTypes } from '../../../generated/types/errors.js';
import { expectThat } from '../../harness/check.js';
import type { Exchange } from '../../harness/probe.js';
import type { Route } from './auth-operations.js';
import { isErrorEnvelope } from './error-envelope.js';

export type ErrorCode = keyof typeof errorCodes;

export function fieldOf(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
}

/** The `type` and `code` of an API error envelope (undefined where the body has none). */
export function apiErrorOf(exchange: Exchange): { type: unknown; code: unknown } {
  const error = fieldOf(exchange.response.body, 'error');
  return { type: fieldOf(error, 'type'), code: fieldOf(error, 'code') };
}

/** The `error` of an RFC 6749 body of the token endpoint. */
export function oauthErrorOf(exchange: Exchange): unknown {
  return fieldOf(exchange.response.body, 'error');
}

/**
 * Status and code of the error catalogue's entry for `code`, in a body that is the whole error envelope (an answer
 * with the right code and an empty message is not the documented error). The type is judged by hasErrorType.
 */
export function hasStatusAndCode(exchange: Exchange, code: ErrorCode): boolean {
  return (
    exchange.response.status === errorCodes[code].status &&
    apiErrorOf(exchange).code === code &&
    isErrorEnvelope(exchange.response.body)
  );
}

/** Status and type of the catalogue's entry for `code`, in a body that is the whole error envelope. */
export function hasErrorType(exchange: Exchange, code: ErrorCode): boolean {
  return (
    exchange.response.status === errorCodes[code].status &&
    apiErrorOf(exchange).type === errorCodes[code].type &&
    isErrorEnvelope(exchange.response.body)
  );
}

/** `401 missing_token`: how the documents name an error by status and code. */
export function statusAndCode(code: ErrorCode): string {
  return `${errorCodes[code].status} ${code}`;
}

/** `401 authentication_error`. */
export function statusAndType(code: ErrorCode): string {
  return `${errorCodes[code].status} ${errorCodes[code].type}`;
}

/** `401 authentication_error / missing_token`. */
export function errorLabel(code: ErrorCode): string {
  return `${statusAndType(code)} / ${code}`;
}

/** Refused by authentication or authorization: the status of `authentication_error` or `permission_error`. */
export function wasRefused(exchange: Exchange): boolean {
  const { status } = exchange.response;
  return status === errorTypes.authentication_error.status || status === errorTypes.permission_error.status;
}

/** Let through: neither refused nor failed on the service's side (a made-up id may well give 404). */
export function wasLetThrough(exchange: Exchange): boolean {
  return !wasRefused(exchange) && exchange.response.status < errorTypes.api_error.status;
}

/** Every probe satisfies `holds`; else fails with the first one that does not, and how many did not. */
export function expectEvery(
  probes: ReadonlyArray<{ route: Route; exchange: Exchange }>,
  holds: (exchange: Exchange, route: Route) => boolean,
  expected: string,
): void {
  expectThat(probes.length > 0, `at least one operation to probe for "${expected}"`);
  const failing = probes.filter(({ exchange, route }) => !holds(exchange, route));
  const first = failing[0];
  expectThat(
    first === undefined,
    `${expected} from every operation; ${failing.length} of ${probes.length} did not, first ${first?.route.operationId} (${first?.route.method} ${first?.route.url})`,
    first?.exchange ?? null,
  );
}

/** A header's value, by its name in any case (fetch gives names in lower case). */
export function headerOf(exchange: Exchange, name: string): string | undefined {
  return exchange.response.headers[name.toLowerCase()];
}
