// Copied by `npm run generate` from runtime/http/transport.ts. Do not edit: change runtime/ and regenerate.

import { type ApiErrorClass, apiErrorFrom, parseBodyText } from './api-error.js';
import type { Authenticator } from './auth.js';
import { isOAuthErrorBody, OAuthError } from './oauth-error.js';
import { assertNotPlaceholder } from './placeholder-url.js';
import { buildUrl, callSignal, encodeBody, type HttpRequest, readBody } from './request.js';
import { defaultRetryPolicy, type RetryPolicy, retryDelay } from './retry.js';

export interface TransportOptions {
  baseUrl: string;
  auth?: Authenticator | undefined;
  fetch?: typeof fetch | undefined;
  /** Time for a whole call, retries and their waits included. */
  timeoutMs?: number | undefined;
  retry?: Partial<RetryPolicy> | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
  /** Error type → class, from the generated catalogue. */
  errorClasses?: Readonly<Record<string, ApiErrorClass>>;
}

/** Per-call settings every generated method accepts last. */
export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  headers?: Readonly<Record<string, string>>;
  /** Attempts in all for this call; 1 turns retries off. */
  maxAttempts?: number;
}

type Attempt = { response: Response; authorization: string | null } | { error: unknown };

/** Sends the generated client's requests: auth, retries with backoff, timeouts and typed errors. */
export class HttpTransport {
  readonly #policy: RetryPolicy;

  constructor(readonly options: TransportOptions) {
    assertNotPlaceholder(options.baseUrl, 'baseUrl', 'createClient');
    this.#policy = { ...defaultRetryPolicy, ...options.retry };
  }

  async send<Result>(request: HttpRequest, options: RequestOptions = {}): Promise<Result> {
    const signal = callSignal(options.timeoutMs ?? this.options.timeoutMs, options.signal);
    const policy = {
      ...this.#policy,
      ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
    };
    let renewed = false;
    let attempt = 1;
    for (;;) {
      const outcome = await this.#attempt(request, options, signal);
      if ('error' in outcome) {
        if (signal.aborted) throw signal.reason;
        const delay = retryDelay(request.method, attempt, null, policy);
        if (delay === null) throw outcome.error;
        await policy.sleep(delay, signal);
        attempt += 1;
        continue;
      }
      const { response, authorization } = outcome;
      if (response.ok) return (await readBody(response, request.response)) as Result;
      if (response.status === 401 && !renewed && authorization !== null) {
        renewed = true;
        if (await this.options.auth?.renewAfterUnauthorized?.(authorization)) {
          await response.body?.cancel();
          continue;
        }
      }
      const retryAfter = response.headers.get('retry-after');
      const delay = retryDelay(request.method, attempt, { status: response.status, retryAfter }, policy);
      if (delay === null) throw await errorFrom(response, request, this.options.errorClasses ?? {});
      await response.body?.cancel();
      await policy.sleep(delay, signal);
      attempt += 1;
    }
  }

  async #attempt(request: HttpRequest, options: RequestOptions, signal: AbortSignal): Promise<Attempt> {
    const authorization = (await this.options.auth?.authorization()) ?? null;
    const { body, contentType } = encodeBody(request.body);
    const headers = new Headers(this.options.headers);
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      if (value !== undefined && value !== null) headers.set(name, String(value));
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    if (request.response === 'json') headers.set('accept', 'application/json');
    if (contentType !== undefined) headers.set('content-type', contentType);
    if (authorization !== null) headers.set('authorization', authorization);
    const url = buildUrl(request.baseUrl ?? this.options.baseUrl, request);
    try {
      const init = { method: request.method, headers, signal, ...(body === undefined ? {} : { body }) };
      return { response: await (this.options.fetch ?? fetch)(url, init), authorization };
    } catch (error) {
      return { error };
    }
  }
}

async function errorFrom(
  response: Response,
  request: HttpRequest,
  classes: Readonly<Record<string, ApiErrorClass>>,
): Promise<Error> {
  const body = parseBodyText(await response.text());
  if (request.errorFormat === 'rfc6749' && isOAuthErrorBody(body))
    return new OAuthError(response.status, body);
  return apiErrorFrom(response.status, response.headers, body, classes);
}
