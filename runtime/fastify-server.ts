import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addBodyParsers } from './fastify-body.js';
import { type ServerErrorCatalogue, sendProblem, toProblem } from './fastify-errors.js';
import { setNotFoundHandler } from './fastify-not-found.js';
import { operationRoute, sendReply } from './fastify-operation.js';
import type {
  Authenticate,
  OperationHandler,
  OperationRoute,
  OperationValidators,
  RenderError,
} from './fastify-routes.js';

/** Everything the generated plugin hands over: the spec's routes, validators and catalogue, and the handlers. */
export interface ServerSetup<Auth> {
  routes: Readonly<Record<string, OperationRoute>>;
  validators: Readonly<Record<string, OperationValidators>>;
  handlers: Readonly<Record<string, OperationHandler>>;
  authenticate: Authenticate<Auth>;
  catalogue: ServerErrorCatalogue;
  /** Gives each request its id; the generated plugin defaults it to ids in the spec's format. */
  requestId: (request: FastifyRequest) => string;
  /** The response header that carries the id, as the spec names it. */
  requestIdHeader: string;
  /** The spec's request body limit in bytes, or null for Fastify's default. */
  bodyLimit: number | null;
  /** The spec refuses unknown query parameters, also of operations that define none (and have no validator). */
  closedQuery: boolean;
  renderError?: RenderError | undefined;
  /** Only these operations (by operationId) are registered; all when absent. */
  operations?: readonly string[] | undefined;
}

/**
 * Every error as the envelope, with the catalogue's status, and the request id of the header; an operation whose
 * errors take another shape may have them rendered by `renderError` instead.
 */
function errorHandler<Auth>(prefix: string, routes: readonly OperationRoute[], setup: ServerSetup<Auth>) {
  const { catalogue, requestIdHeader, renderError } = setup;
  const byRoute = new Map(routes.map((route) => [`${route.method} ${prefix}${route.url}`, route]));
  return async (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const problem = toProblem(catalogue, error, request);
    // The client sees no detail of an unexpected failure; the log keeps it.
    if (problem !== error && problem.status >= 500) request.log.error({ err: error }, 'request failed');
    if (!reply.hasHeader(requestIdHeader)) reply.header(requestIdHeader, setup.requestId(request));
    const requestId = String(reply.getHeader(requestIdHeader));
    const route = byRoute.get(`${request.method} ${request.routeOptions.url}`);
    const own = route && renderError?.({ problem, operationId: route.operationId, requestId, request });
    return route && own ? sendReply(route, reply, own) : sendProblem(reply, problem, requestId);
  };
}

/**
 * Registers every operation of the route table in `fastify`'s context, with the error handler, not-found handler and
 * body parsers that make each answer follow the spec. Nothing is validated by Fastify's Ajv: routes carry response
 * schemas only, and requests go through the precompiled validators.
 */
export function registerOperations<Auth>(fastify: FastifyInstance, setup: ServerSetup<Auth>): void {
  const { catalogue } = setup;
  // Fastify keeps header names in lower case: named so, each use spares a toLowerCase and a string-table lookup.
  const requestIdHeader = setup.requestIdHeader.toLowerCase();
  const requestIdOf = (reply: FastifyReply) => String(reply.getHeader(requestIdHeader) ?? '');
  // A callback hook, not an async one: every request runs it, and an async hook costs a promise per request.
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(requestIdHeader, setup.requestId(request));
    done();
  });
  const selected = setup.operations === undefined ? null : new Set(setup.operations);
  const routes = Object.values(setup.routes).filter(
    (route) => selected === null || selected.has(route.operationId),
  );
  fastify.setErrorHandler(errorHandler(fastify.prefix, routes, setup));
  setNotFoundHandler(fastify, routes, catalogue);
  addBodyParsers(fastify, routes);
  for (const route of routes) {
    const handler = setup.handlers[route.operationId];
    if (handler === undefined) throw new Error(`no handler for operation ${route.operationId}`);
    fastify.route(
      operationRoute({
        route,
        handler,
        validators: setup.validators[route.operationId] ?? {},
        authenticate: setup.authenticate,
        catalogue,
        requestIdOf,
        bodyLimit: setup.bodyLimit,
        closedQuery: setup.closedQuery,
      }),
    );
  }
}
