import type { FastifyReply, preValidationAsyncHookHandler } from 'fastify';
import { requestIdHeader } from '../../generated/server/plugin.js';
import { envelope } from '../../runtime/error-envelope.js';
import { problem } from '../problems.js';
import { newId } from '../services/ids.js';

/**
 * route_not_found for requests the operations' plugin never sees, so Fastify would answer with its own body: paths
 * its router refuses before any hook runs (a percent-encoding that does not decode, a parameter longer than its
 * limit), and paths outside the base path (`/` when `{base_url}` ends in `/v2`).
 */
export function sendRouteNotFound(reply: FastifyReply, message: string): void {
  const requestId = newId('RequestId');
  const notFound = problem('route_not_found', message);
  // The plugin's onRequest hook, which sets the header, does not run for these requests.
  void reply
    .code(notFound.status)
    .header(requestIdHeader, requestId)
    .send(envelope(notFound.toDetail(), requestId));
}

export function frameworkErrors(_error: Error, _request: unknown, reply: FastifyReply): void {
  sendRouteNotFound(reply, 'No operation has this path: it is not a valid URL path.');
}

/** Where a value holds U+0000 (in a string or a key), as a `param` path (`samples.0.values`), or null. */
export function nulCharacterPath(value: unknown, path = ''): string | null {
  const join = (key: string) => (path === '' ? key : `${path}.${key}`);
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, child] of Object.entries(value)) {
    if (key.includes('\u0000')) return join(key);
    const found = nulCharacterPath(child, join(key));
    if (found !== null) return found;
  }
  return null;
}

/** PostgreSQL text and jsonb cannot hold U+0000: such input is an invalid parameter, not a failure of storage. */
export const refuseNulCharacters: preValidationAsyncHookHandler = async (request) => {
  // An unknown path is route_not_found whatever its query holds.
  if (request.is404) return;
  for (const input of [request.params, request.query, request.body]) {
    const param = nulCharacterPath(input);
    if (param === null) continue;
    const message = `${param === '' ? 'The request body' : param} must not contain the NUL character (U+0000).`;
    throw problem('parameter_invalid', message, param === '' ? undefined : param);
  }
};
