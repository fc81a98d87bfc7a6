import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import { requestIdHeader } from '../../generated/server/plugin.js';
import { apiPolicies } from '../../generated/types/facts.js';
import { envelope } from '../../runtime/error-envelope.js';
import { type ErrorCode, problem } from '../problems.js';
import { newId } from '../services/ids.js';
import { jsonStructureProblem } from './json-structure.js';

const { limits } = apiPolicies;

/** Node's HTTP parser errors by code, as the catalogue's code and a message (issue 12, items 5 and 7). */
const clientErrors: Readonly<Record<string, [ErrorCode, string]>> = {
  HPE_HEADER_OVERFLOW: ['headers_too_large', 'The request headers are larger than the service accepts.'],
  ERR_HTTP_REQUEST_TIMEOUT: ['request_timeout', 'The request did not arrive in time.'],
  HPE_HEADERS_TIMEOUT: ['request_timeout', 'The request headers did not arrive in time.'],
  HPE_INVALID_METHOD: ['request_malformed', 'The request method is not an HTTP method this service knows.'],
};

const reasons: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** Node's own fields of a server socket, read as its default clientError answer reads them (not in @types/node). */
type ServerSocket = Socket & {
  /** The response now being written on this connection, until it finishes. */
  _httpMessage?: ServerResponse | null;
  /** The request being read, kept until its body has been read, even once it is answered. */
  parser?: { incoming?: IncomingMessage | null } | null;
};

/**
 * Whether the request whose bytes failed already has its answer, begun or sent. A request refused before its body is
 * read (a Content-Type the operation does not take, a used-up window) is answered at once, and Node then goes on
 * reading the body: a framing error in it, or the request time limit running out while it trickles, would otherwise
 * be a second answer to one request, which a keep-alive client would take for the answer to its next one.
 */
function alreadyAnswered(socket: ServerSocket): boolean {
  const inFlight = socket._httpMessage;
  if (inFlight != null) return inFlight.headersSent;
  // No response in flight while a request is still being read: Node gave that request's response the connection as
  // soon as its headers were read (no earlier one was pending), and it has finished.
  const reading = socket.parser?.incoming;
  return reading != null && !reading.complete;
}

/**
 * Requests Node refuses before Fastify sees them (broken framing, overlong headers, timeouts) still get the
 * envelope; the connection is closed after it, as the parser's state is lost. A request already answered gets no
 * second answer: its connection is only closed, after what was written (a lingering close, not a reset).
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  if (alreadyAnswered(socket)) {
    socket.end();
    return;
  }
  const [code, message] = clientErrors[error.code ?? ''] ?? [
    'request_malformed',
    'The request is not well-formed HTTP/1.1.',
  ];
  const refusal = problem(code, message);
  const requestId = newId('RequestId');
  const body = JSON.stringify(envelope(refusal.toDetail(), requestId));
  socket.end(
    [
      `HTTP/1.1 ${refusal.status} ${reasons[refusal.status] ?? 'Bad Request'}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `${requestIdHeader}: ${requestId}`,
      'X-Content-Type-Options: nosniff',
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}

/** How long a request's headers, and the whole request, may take to arrive; the spec's x-limits by default. */
export interface RequestTimeouts {
  headersSeconds: number;
  requestSeconds: number;
}

export const specTimeouts: RequestTimeouts = {
  headersSeconds: limits.requestHeadersTimeoutSeconds,
  requestSeconds: limits.requestTimeoutSeconds,
};

/** Server options for the edges: time limits for slow clients, no Host required (HTTP/1.0 clients). */
export function serverEdgeOptions(
  timeouts: RequestTimeouts = specTimeouts,
): Pick<FastifyServerOptions, 'requestTimeout' | 'clientErrorHandler'> & { http: ServerOptions } {
  return {
    // The whole request (headers and body) must arrive within this; Node checks once a second.
    requestTimeout: timeouts.requestSeconds * 1000,
    http: {
      requireHostHeader: false,
      headersTimeout: timeouts.headersSeconds * 1000,
      connectionsCheckingInterval: 1000,
    },
    clientErrorHandler: answerClientError,
  };
}

/**
 * `Expect` with anything but 100-continue: RFC 9110 lets a server answer 417 or ignore it; Node would answer a bare
 * 417, so the request is handled as if the field were absent.
 */
export function ignoreUnknownExpectations(app: FastifyInstance): void {
  app.server.on('checkExpectation', (request, response) => app.server.emit('request', request, response));
}

/**
 * A client may send a whole request and then shut its side of the connection (`Connection: close` and a half-close:
 * raw clients, HTTP/1.0 tools). Node would then drop every request not yet answered and close at once, so whether
 * such a client got its answer depended on the handler finishing before the FIN was read (a store on another thread
 * never did). Half-open, the request is served and the connection closes after its response (RFC 9112 §9.6).
 */
export function answerHalfClosedRequests(app: FastifyInstance): void {
  // Node's own switch (net.Server is already allowHalfOpen; this is the HTTP layer's), not in @types/node.
  (app.server as typeof app.server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
}

/** Fastify's JSON parser behind the structure check: deep nesting and duplicate keys are body_invalid_json. */
export function strictJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const structure = jsonStructureProblem(String(body), limits.maxJsonNestingDepth);
    if (structure !== null) {
      done(problem('body_invalid_json', structure), undefined);
      return;
    }
    parse(request, String(body), done);
  });
}

const authorization = 'authorization';

/** Node keeps the first of two Authorization headers and drops the other; the service refuses the request instead. */
export function repeatedAuthorization(request: FastifyRequest): boolean {
  // Every request passes here: a loop over the names (even indexes), no arrays built.
  const raw = request.raw.rawHeaders;
  let seen = 0;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] as string;
    if (name.length === authorization.length && name.toLowerCase() === authorization) seen += 1;
  }
  return seen > 1;
}
