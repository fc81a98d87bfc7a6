// Copied by `npm run generate` from runtime/http/api-error.ts. Do not edit: change runtime/ and regenerate.

import { isErrorEnvelope } from '../error-envelope.js';

/** What an ApiError is built from: the response status, the envelope's fields (null without one) and the body. */
export interface ApiErrorInit {
  status: number;
  message: string;
  type: string | null;
  code: string | null;
  param: string | null;
  requestId: string | null;
  /** The parsed JSON body, or the text when it was not JSON. */
  body: unknown;
  headers: Headers;
}

/**
 * An HTTP error answer. Envelope answers fill `type`, `code`, `param` and `requestId`; any other error body (a proxy's
 * HTML page, an empty 502) still gives an ApiError, with those fields null.
 */
export class ApiError<
  Type extends string | null = string | null,
  Code extends string | null = string | null,
> extends Error {
  readonly status: number;
  readonly type: Type;
  readonly code: Code;
  readonly param: string | null;
  readonly requestId: string | null;
  readonly body: unknown;
  readonly headers: Headers;

  // The map of error classes pairs each class with its type, so the envelope's strings are the subclass's literals.
  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = new.target.name;
    this.status = init.status;
    this.type = init.type as Type;
    this.code = init.code as Code;
    this.param = init.param;
    this.requestId = init.requestId;
    this.body = init.body;
    this.headers = init.headers;
  }
}

/** A class the generated code maps an error type to. */
export type ApiErrorClass = new (init: ApiErrorInit) => ApiError<string, string>;

/** JSON when the text is JSON, the text itself otherwise (a proxy's HTML page), null when empty. */
export function parseBodyText(text: string): unknown {
  if (text.length === 0) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The typed error of an error answer: the class registered for the envelope's type, else ApiError itself. */
export function apiErrorFrom(
  status: number,
  headers: Headers,
  body: unknown,
  classes: Readonly<Record<string, ApiErrorClass>>,
): ApiError {
  if (!isErrorEnvelope(body)) {
    const message = `HTTP ${status}${typeof body === 'string' ? `: ${body.slice(0, 200)}` : ''}`;
    return new ApiError({
      status,
      message,
      type: null,
      code: null,
      param: null,
      requestId: null,
      body,
      headers,
    });
  }
  const { type, code, message, param, requestId } = body.error;
  const init = { status, message, type, code, param: param ?? null, requestId, body, headers };
  const ErrorClass = Object.hasOwn(classes, type) ? classes[type] : undefined;
  return ErrorClass === undefined ? new ApiError(init) : new ErrorClass(init);
}
