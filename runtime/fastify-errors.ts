import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiProblem, type ErrorCodeEntry, type ErrorDetail, envelope } from './error-envelope.js';

/** The catalogue codes that play the parts the HTTP edge needs: the types artifact's `errorRoles`. */
export interface ServerErrorRoles {
  readonly routeNotFound: string;
  readonly methodNotAllowed: string;
  readonly malformedBody: string;
  readonly unsupportedContentType: string;
  readonly bodyTooLarge: string;
  readonly internalError: string;
  /** Only when the spec refuses unknown query parameters, for operations that define none. */
  readonly unknownParameter?: string;
}

/** The spec's error catalogue as the generated server hands it over (`errorCodes` and the roles above). */
export interface ServerErrorCatalogue {
  readonly codes: Readonly<Record<string, ErrorCodeEntry>>;
  readonly roles: ServerErrorRoles;
}

export function problemFor(
  catalogue: ServerErrorCatalogue,
  role: keyof ServerErrorRoles,
  message: string,
  param?: string,
): ApiProblem {
  const code = catalogue.roles[role] ?? '';
  const entry = catalogue.codes[code];
  // The generator refuses a catalogue without these codes, so this is a bug, rendered as a 500 upstream.
  if (entry === undefined) throw new Error(`the error catalogue has no code for ${role}`);
  return new ApiProblem(code, entry, message, param);
}

/** A validator's error as a problem; a code outside the catalogue is a generator bug and becomes a 500. */
export function problemFromDetail(catalogue: ServerErrorCatalogue, detail: ErrorDetail): ApiProblem {
  const entry = catalogue.codes[detail.code];
  if (entry === undefined)
    throw new Error(`a validator answered "${detail.code}", which is not in the catalogue`);
  return new ApiProblem(detail.code, entry, detail.message, detail.param);
}

type Explained = { role: keyof ServerErrorRoles; message: (request: FastifyRequest) => string };

// Fastify's own errors that the catalogue has a code for; every other error is an internal one.
const fastifyErrors: Readonly<Record<string, Explained>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    role: 'bodyTooLarge',
    message: (request) => `The request body is larger than ${request.routeOptions.bodyLimit} bytes.`,
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    role: 'unsupportedContentType',
    message: (request) =>
      `${request.method} ${request.routeOptions.url ?? request.url} takes no body of type ${request.headers['content-type'] ?? '(none)'}.`,
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    role: 'malformedBody',
    message: () => 'The request body is not well-formed JSON.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { role: 'malformedBody', message: () => 'The JSON request body is empty.' },
  // QUERY (RFC 10008) must carry a Content-Type; Fastify refuses it before routing to the not-found handler.
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: {
    role: 'unsupportedContentType',
    message: (request) => `A ${request.method} request needs a Content-Type header.`,
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    role: 'malformedBody',
    message: () => 'The request body does not match its Content-Length.',
  },
};

function fastifyErrorCode(error: unknown): string {
  if (!(error instanceof Error) || !('code' in error)) return '';
  return typeof error.code === 'string' ? error.code : '';
}

/** Any error raised while handling a request, as the problem the client is told about. */
export function toProblem(
  catalogue: ServerErrorCatalogue,
  error: unknown,
  request: FastifyRequest,
): ApiProblem {
  if (error instanceof ApiProblem) return error;
  const explained = fastifyErrors[fastifyErrorCode(error)];
  if (explained !== undefined) return problemFor(catalogue, explained.role, explained.message(request));
  const internal = catalogue.codes[catalogue.roles.internalError];
  return problemFor(catalogue, 'internalError', internal?.description ?? 'The service failed.');
}

/** The envelope with the problem's status and any headers it must carry (`WWW-Authenticate`, `Retry-After`). */
export function sendProblem(reply: FastifyReply, problem: ApiProblem, requestId: string): FastifyReply {
  return reply.code(problem.status).headers(problem.headers).send(envelope(problem.toDetail(), requestId));
}
