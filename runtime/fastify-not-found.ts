import type { FastifyInstance } from 'fastify';
import { problemFor, type ServerErrorCatalogue } from './fastify-errors.js';
import type { OperationRoute } from './fastify-routes.js';

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A Fastify URL (`/reports/:reportId/feed.xml`) as a pattern over request paths; `::` is a literal colon. */
function urlPattern(url: string): RegExp {
  const segments = url.split('/').map((segment) =>
    segment
      .split('::')
      .map((piece) => escaped(piece).replace(/:[A-Za-z0-9_]+/g, '[^/]+'))
      .join(':'),
  );
  return new RegExp(`^${segments.join('/')}$`);
}

function decodedPath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** The methods the routes accept at a concrete path (`/streams/stm_1`), sorted. */
export function methodsAllowedAt(
  prefix: string,
  routes: readonly OperationRoute[],
): (path: string) => string[] {
  const patterns = routes.map((route) => ({
    method: route.method,
    pattern: urlPattern(`${prefix}${route.url}`),
  }));
  return (path) => {
    const decoded = decodedPath(path);
    const methods = patterns.filter(({ pattern }) => pattern.test(decoded)).map(({ method }) => method);
    return [...new Set(methods)].sort();
  };
}

/**
 * Unknown paths answer the route-not-found code; a known path with another method answers method-not-allowed with
 * an `Allow` header (RFC 9110 section 15.5.6). The error handler renders both as the envelope.
 */
export function setNotFoundHandler(
  fastify: FastifyInstance,
  routes: readonly OperationRoute[],
  catalogue: ServerErrorCatalogue,
): void {
  const allowedAt = methodsAllowedAt(fastify.prefix, routes);
  fastify.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = allowedAt(path);
    if (allowed.length === 0) {
      throw problemFor(catalogue, 'routeNotFound', `No operation has the path ${path}.`);
    }
    reply.header('allow', allowed.join(', '));
    throw problemFor(
      catalogue,
      'methodNotAllowed',
      `${path} does not accept ${request.method}; it accepts ${allowed.join(', ')}.`,
    );
  });
}
