import type { FastifyReply, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import { contentTypeCheck } from './fastify-body.js';
import { type InputRules, validatedInput } from './fastify-input.js';
import {
  type Authenticate,
  type OperationHandler,
  type OperationInput,
  type OperationReply,
  type OperationRoute,
  responseFor,
} from './fastify-routes.js';
import { isWireShaped } from './wire-shaped.js';

/** What one route needs besides its table entry; `requestIdOf` reads the id the server gave the request. */
export interface OperationWiring<Auth> extends InputRules {
  handler: OperationHandler;
  authenticate: Authenticate<Auth>;
  requestIdOf: (reply: FastifyReply) => string;
  bodyLimit: number | null;
}

/**
 * Where the authentication hook leaves its result for the handler: a property of the request under a symbol of its
 * own, which no other code can name (a WeakMap keyed by request cost a hash entry per request and weak-reference work
 * for the garbage collector; issue 16).
 */
const authSlot = Symbol('operation auth');
type AuthenticatedRequest<Auth> = FastifyRequest & { [authSlot]?: Auth };

function isPromise<Value>(value: Value | Promise<Value>): value is Promise<Value> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** The Content-Type of each status's reply, by whether the body is text: worked out once per route and status. */
const contentTypes = new WeakMap<OperationRoute, Map<number, { json: string | null; text: string | null }>>();

function contentTypeOf(route: OperationRoute, status: number, bodyIsString: boolean): string | null {
  let byStatus = contentTypes.get(route);
  if (byStatus === undefined) {
    byStatus = new Map();
    contentTypes.set(route, byStatus);
  }
  let types = byStatus.get(status);
  if (types === undefined) {
    const contentType = responseFor(route, status)?.contentType ?? null;
    const isJson = /json/.test(contentType ?? '');
    types = {
      json: contentType,
      text: contentType === null || isJson ? contentType : `${contentType}; charset=utf-8`,
    };
    byStatus.set(status, types);
  }
  return bodyIsString ? types.text : types.json;
}

/** A handler's reply: status, headers, and the body in the content type the spec gives that status. */
export function sendReply(route: OperationRoute, reply: FastifyReply, result: OperationReply): FastifyReply {
  reply.code(result.status);
  const headers = result.headers;
  if (headers !== undefined) {
    for (const name in headers) {
      const value = headers[name];
      if (value !== undefined) reply.header(name, value);
    }
  }
  const contentType = contentTypeOf(route, result.status, typeof result.body === 'string');
  if (contentType !== null) reply.type(contentType);
  // Fastify sends a string as it is when a JSON content type is set: the schema's serializer is skipped.
  if (contentType?.includes('json') && isWireShaped(result.body))
    return reply.send(JSON.stringify(result.body));
  return reply.send(result.body);
}

/** Fastify's response map: JSON bodies only, with `4XX` spelt as Fastify spells it (`4xx`). */
function responseSchemas(route: OperationRoute): Record<string, object> {
  return Object.fromEntries(
    Object.entries(route.responses).flatMap(([status, response]) =>
      response.schema === undefined ? [] : [[status.replace('XX', 'xx'), response.schema]],
    ),
  );
}

/**
 * One operation as Fastify route options: authentication first (before the body is even read), then the content
 * type, then the precompiled validators, then the handler, whose reply is serialised by the response schemas.
 */
export function operationRoute<Auth>(wiring: OperationWiring<Auth>): RouteOptions {
  const { route, catalogue, authenticate } = wiring;
  const checkContentType = contentTypeCheck(route, catalogue);
  // Authentication, then the content type, in one callback hook: one hook call per request instead of two, and no
  // promise of its own when authentication answers synchronously (issue 16).
  const authenticateHook: onRequestHookHandler = (request, reply, done) => {
    const { operationId, security } = route;
    let outcome: Auth | Promise<Auth>;
    try {
      outcome = authenticate({ request, reply, operationId, security });
    } catch (error) {
      done(error as Error);
      return;
    }
    if (!isPromise(outcome)) {
      (request as AuthenticatedRequest<Auth>)[authSlot] = outcome;
      checkContentType.call(request.server, request, reply, done);
      return;
    }
    outcome.then(
      (auth) => {
        (request as AuthenticatedRequest<Auth>)[authSlot] = auth;
        checkContentType.call(request.server, request, reply, done);
      },
      (error: Error) => done(error),
    );
  };
  return {
    method: route.method,
    url: route.url,
    exposeHeadRoute: false,
    ...(wiring.bodyLimit === null ? {} : { bodyLimit: wiring.bodyLimit }),
    schema: { response: responseSchemas(route) },
    onRequest: route.security.length > 0 ? authenticateHook : checkContentType,
    handler: async (request, reply) => {
      const valid = validatedInput(wiring, request);
      // A literal, not a spread of `valid` with fields added: V8 copies the latter far more slowly.
      const input: OperationInput = {
        params: valid.params,
        query: valid.query,
        headers: valid.headers,
        body: valid.body,
        auth: (request as AuthenticatedRequest<Auth>)[authSlot],
        requestId: wiring.requestIdOf(reply),
        raw: request,
      };
      // The validators produced exactly the types the generated handler declares.
      const result = await (wiring.handler as (input: OperationInput) => Promise<OperationReply>)(input);
      return sendReply(route, reply, result);
    },
  };
}
