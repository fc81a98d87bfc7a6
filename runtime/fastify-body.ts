import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { problemFor, type ServerErrorCatalogue } from './fastify-errors.js';
import type { OperationRoute } from './fastify-routes.js';

const formType = 'application/x-www-form-urlencoded';

function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

function isJson(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

/** Repeated fields become arrays, so that a validator can refuse them instead of one value winning silently. */
export function parseForm(body: string): Record<string, string | string[]> {
  const fields = new Map<string, string | string[]>();
  for (const [name, value] of new URLSearchParams(body)) {
    const previous = fields.get(name);
    if (previous === undefined) fields.set(name, value);
    else fields.set(name, [...(Array.isArray(previous) ? previous : [previous]), value]);
  }
  return Object.fromEntries(fields);
}

/** A parser for each request content type the routes declare that Fastify does not parse already. */
export function addBodyParsers(fastify: FastifyInstance, routes: readonly OperationRoute[]): void {
  const types = new Set(
    routes.flatMap((route) => (route.requestBody ? [mediaType(route.requestBody.contentType)] : [])),
  );
  for (const type of types) {
    if (fastify.hasContentTypeParser(type)) continue;
    if (isJson(type)) {
      fastify.addContentTypeParser(
        type,
        { parseAs: 'string' },
        fastify.getDefaultJsonParser('error', 'error'),
      );
    } else if (type === formType) {
      fastify.addContentTypeParser(type, { parseAs: 'string' }, (_request, body, done) => {
        done(null, parseForm(String(body)));
      });
    } else {
      const parseAs = type.startsWith('text/') ? 'string' : 'buffer';
      fastify.addContentTypeParser(type, { parseAs }, (_request, body, done) => done(null, body));
    }
  }
}

function hasPayload(request: FastifyRequest): boolean {
  const length = Number(request.headers['content-length'] ?? 0);
  return request.headers['transfer-encoding'] !== undefined || length > 0;
}

/** Refuses, before parsing, a body of another type than the operation's (Fastify's parsers are per instance). */
export function contentTypeCheck(
  route: OperationRoute,
  catalogue: ServerErrorCatalogue,
): onRequestHookHandler {
  const expected = route.requestBody === null ? null : mediaType(route.requestBody.contentType);
  // A callback hook: no promise per request.
  return (request, _reply, done) => {
    const header = request.headers['content-type'];
    if (expected === null || (header === undefined && !hasPayload(request))) return done();
    // The usual header is exactly the expected type: no splitting or lower-casing then.
    if (header === expected || (header !== undefined && mediaType(header) === expected)) return done();
    done(
      problemFor(
        catalogue,
        'unsupportedContentType',
        `${route.method} ${route.url} takes a body of type ${expected}, not ${header ?? '(none)'}.`,
      ),
    );
  };
}
