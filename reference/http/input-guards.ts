import type { FastifyReply, preValidationHookHandler } from 'fastify';
import { requestIdHeader } from '../../generated/server/plugin.js';
import { envelope } from '../../runtime/error-envelope.js';
import { problem } from '../problems.js';
import { newId } from '../services/ids.js';
import { setSecurityHeaders } from './response-headers.js';

/**
 * route_not_found for requests the operations' plugin never sees, so Fastify would answer with its own body: paths
 * its router refuses before any hook runs (a percent-encoding that does not decode, a parameter longer than its
 * limit), and paths outside the base path (`/` when `{base_url}` ends in `/v2`).
 */
export function sendRouteNotFound(reply: FastifyReply, message: string): void {
  const requestId = newId('RequestId');
  const notFound = problem('route_not_found', message);
  // The onRequest hooks, which set the request id and the security headers, do not run for these requests.
  setSecurityHeaders(reply);
  void reply
    .code(notFound.status)
    .header(requestIdHeader, requestId)
    .send(envelope(notFound.toDetail(), requestId));
}

export function frameworkErrors(_error: Error, _request: unknown, reply: FastifyReply): void {
  sendRouteNotFound(reply, 'No operation has this path: it is not a valid URL path.');
}

/** What makes a value unfit to store: U+0000 and lone UTF-16 surrogates (PostgreSQL text and jsonb refuse both), numbers
 * that overflowed to infinity (JSON has no infinity; `1e400` would be stored as something else). */
function unfit(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : 'must be a finite number';
  if (typeof value !== 'string') return null;
  if (value.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  // A string is well formed when it has no lone surrogate: a native check, where a regular expression with look-arounds
  // ran once per key and value of every body (issue 16).
  return value.isWellFormed() ? null : 'must not contain a lone UTF-16 surrogate';
}

/** The first unfit value or key, with its `param` path (`samples.0.values`); the body's depth is already bounded. */
export function unfitValue(value: unknown, path = ''): { path: string; reason: string } | null {
  const keys: string[] = path === '' ? [] : [path];
  const found = unfitWithin(value, keys);
  return found === null ? null : { path: keys.join('.'), reason: found };
}

/**
 * The reason `value` or something in it is unfit, with `keys` left naming where (every body of every request passes
 * here, so the path is kept as a stack of keys and joined only when something is found).
 */
function unfitWithin(value: unknown, keys: string[]): string | null {
  const reason = unfit(value);
  if (reason !== null) return reason;
  if (typeof value !== 'object' || value === null) return null;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    keys.push(key);
    const keyReason = unfit(key);
    if (keyReason !== null) return `is a key that ${keyReason}`;
    const found = unfitWithin((value as Record<string, unknown>)[key], keys);
    if (found !== null) return found;
    keys.pop();
  }
  return null;
}

/** Values storage cannot hold faithfully are invalid parameters, not failures of storage. */
export const refuseUnfitValues: preValidationHookHandler = (request, _reply, done) => {
  // An unknown path is route_not_found whatever its query holds.
  if (request.is404) return done();
  const found = unfitValue(request.params) ?? unfitValue(request.query) ?? unfitValue(request.body);
  if (found === null) return done();
  const subject = found.path === '' ? 'The request body' : found.path;
  done(
    problem('parameter_invalid', `${subject} ${found.reason}.`, found.path === '' ? undefined : found.path),
  );
};
