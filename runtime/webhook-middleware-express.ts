import type { BoundVerifier } from './webhook-middleware.js';
import {
  defaultMaxBodyBytes,
  type RawBodyOptions,
  type RequestStream,
  readRawBody,
} from './webhook-middleware-node.js';

/** Express's request as far as this middleware needs it (Express itself is not a dependency). */
export interface ExpressLikeRequest extends RequestStream {
  body?: unknown;
  /** The bytes a body parser's `verify` hook kept, when one ran first. */
  rawBody?: unknown;
  readableEnded?: boolean;
}

export type ExpressLikeNext = (error?: unknown) => void;

export type ExpressLikeMiddleware = (
  request: ExpressLikeRequest,
  response: unknown,
  next: ExpressLikeNext,
) => void;

function isRaw(value: unknown): value is string | Buffer {
  return typeof value === 'string' || Buffer.isBuffer(value);
}

function rawBodyOf(request: ExpressLikeRequest, maxBytes: number): Promise<string | Buffer> {
  if (isRaw(request.rawBody)) return Promise.resolve(request.rawBody);
  // express.raw() or express.text() leave the bytes in `body`.
  if (isRaw(request.body)) return Promise.resolve(request.body);
  if (request.readableEnded === true) {
    return Promise.reject(
      new Error(
        'the webhook body was parsed before the webhook middleware: mount it before express.json(), or keep the bytes in request.rawBody',
      ),
    );
  }
  return readRawBody(request, maxBytes);
}

/** Verifies the delivery and replaces `request.body` with the event; a failure goes to `next(error)`. */
export function createExpressWebhookMiddleware<Event>(
  verify: BoundVerifier<Event>,
  options: RawBodyOptions = {},
): ExpressLikeMiddleware {
  const maxBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
  return (request, _response, next) => {
    rawBodyOf(request, maxBytes)
      .then((rawBody) => verify(rawBody, request.headers))
      .then(
        (event) => {
          request.body = event;
          next();
        },
        (error: unknown) => next(error),
      );
  };
}
