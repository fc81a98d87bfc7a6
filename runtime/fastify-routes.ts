import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { ApiProblem } from './error-envelope.js';
import type { Validator } from './validation-result.js';

/** One way to authenticate: every scheme listed must hold (OpenAPI's security requirement object). */
export interface SecurityRequirement {
  readonly schemes: ReadonlyArray<{ readonly name: string; readonly scopes: readonly string[] }>;
}

/** One response of an operation; `schema` (for Fastify's serialiser) only when the body is JSON. */
export interface ResponseRoute {
  readonly contentType: string | null;
  readonly schema?: object;
}

/** One operation as the generated route table describes it. */
export interface OperationRoute {
  readonly operationId: string;
  readonly method: HTTPMethods;
  /** Fastify's syntax: `/streams/:streamId`. */
  readonly url: string;
  /** The base URL of the server the operation lives on when it is not the document's default (the OAuth endpoints). */
  readonly serverUrl: string | null;
  /** Alternatives, one of which must hold; empty when the operation needs no authentication. */
  readonly security: readonly SecurityRequirement[];
  readonly requestBody: { readonly contentType: string; readonly required: boolean } | null;
  /** Header parameters as the spec spells them; Node gives every header name in lower case. */
  readonly headerParameters?: readonly string[];
  /** By status as the spec writes it: `201`, `4XX`, `default`. */
  readonly responses: Readonly<Record<string, ResponseRoute>>;
}

/** The precompiled validators of one operation, by part of the request. */
export interface OperationValidators {
  readonly path?: Validator<unknown>;
  readonly query?: Validator<unknown>;
  readonly headers?: Validator<unknown>;
  readonly body?: Validator<unknown>;
}

export interface AuthenticateContext {
  request: FastifyRequest;
  /** For headers a refusal carries (`WWW-Authenticate`, rate-limit fields) before the hook throws. */
  reply: FastifyReply;
  operationId: string;
  security: readonly SecurityRequirement[];
}

/** Supplied by the implementation: returns what handlers see as `auth`, or throws an `ApiProblem`. */
export type Authenticate<Auth> = (context: AuthenticateContext) => Auth | Promise<Auth>;

/** What a handler receives once authentication and validation passed. */
export interface OperationInput {
  params: unknown;
  query: unknown;
  headers: unknown;
  body: unknown;
  auth: unknown;
  requestId: string;
  raw: FastifyRequest;
}

export interface OperationReply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>;
}

/**
 * For operations whose errors the spec gives another shape than the envelope (an RFC 6749 body, an HTML page):
 * the reply to send for a problem, or null to send the envelope.
 */
export type RenderError = (context: {
  problem: ApiProblem;
  operationId: string;
  requestId: string;
  request: FastifyRequest;
}) => OperationReply | null;

/** `never` accepts every generated handler, whose input type is narrower than OperationInput. */
export type OperationHandler = (input: never) => Promise<OperationReply>;

/** The response entry for a status: exact, then its class (`4XX`), then `default`. */
export function responseFor(route: OperationRoute, status: number): ResponseRoute | undefined {
  const statusClass = `${String(status).charAt(0)}XX`;
  return route.responses[String(status)] ?? route.responses[statusClass] ?? route.responses.default;
}
