// Copied by `npm run generate` from runtime/http/request.ts. Do not edit: change runtime/ and regenerate.

/** How the generated code describes one call; the transport turns it into fetch arguments. */
export interface HttpRequest {
  method: string;
  /** The path template as the spec writes it: `/streams/{streamId}`. */
  path: string;
  pathParameters?: Readonly<Record<string, string | number>>;
  query?: object | undefined;
  headers?: object | undefined;
  /** The request body's media type, and the body; JSON and form bodies are encoded here. */
  body?: { contentType: string; value: unknown };
  /** How the success body is read. */
  response: ResponseKind;
  /** `rfc6749` for endpoints that answer errors as RFC 6749 bodies instead of the API envelope. */
  errorFormat?: 'rfc6749';
  /** An operation with its own server (its `servers` entry) overrides the client's base URL. */
  baseUrl?: string;
}

export type ResponseKind = 'json' | 'text' | 'bytes' | 'none';

type FetchBody = NonNullable<RequestInit['body']>;

type QueryValue = string | number | boolean | null | undefined | readonly unknown[] | object;

/** Form style with explode, OpenAPI's default for query parameters: arrays repeat the name, objects spread. */
export function serialiseQuery(query: object | undefined): URLSearchParams {
  const search = new URLSearchParams();
  const append = (name: string, value: QueryValue): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) for (const item of value) append(name, item as QueryValue);
    else if (typeof value === 'object') for (const [key, inner] of Object.entries(value)) append(key, inner);
    else search.append(name, String(value));
  };
  for (const [name, value] of Object.entries(query ?? {})) append(name, value as QueryValue);
  return search;
}

/** Base URL + path with each `{name}` replaced by its encoded value + query. */
export function buildUrl(
  baseUrl: string,
  request: Pick<HttpRequest, 'path' | 'pathParameters' | 'query'>,
): URL {
  const path = request.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = request.pathParameters?.[name];
    if (value === undefined) throw new TypeError(`path parameter "${name}" is missing`);
    return encodeURIComponent(String(value));
  });
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}${path}`);
  url.search = serialiseQuery(request.query).toString();
  return url;
}

export function isJsonMediaType(contentType: string | null): boolean {
  return contentType !== null && /^application\/([\w.+-]+\+)?json\b/i.test(contentType);
}

/** The body as fetch takes it, with the Content-Type header it needs. */
export function encodeBody(body: HttpRequest['body']): { body?: FetchBody; contentType?: string } {
  if (body === undefined || body.value === undefined) return {};
  const { contentType, value } = body;
  if (isJsonMediaType(contentType)) return { body: JSON.stringify(value), contentType };
  if (/^application\/x-www-form-urlencoded\b/i.test(contentType)) {
    return { body: serialiseQuery(value as object).toString(), contentType };
  }
  return { body: value as FetchBody, contentType };
}

/** One signal that aborts on the caller's signal or when the call's time is up, whichever comes first. */
export function callSignal(timeoutMs: number | undefined, signal: AbortSignal | undefined): AbortSignal {
  const signals = [
    ...(signal === undefined ? [] : [signal]),
    ...(timeoutMs === undefined ? [] : [AbortSignal.timeout(timeoutMs)]),
  ];
  return signals.length === 0 ? new AbortController().signal : AbortSignal.any(signals);
}

/** Reads a success body the way the operation's spec says it comes. */
export async function readBody(response: Response, kind: ResponseKind): Promise<unknown> {
  if (kind === 'none' || response.status === 204) {
    await response.body?.cancel();
    return undefined;
  }
  if (kind === 'bytes') return new Uint8Array(await response.arrayBuffer());
  const text = await response.text();
  if (kind === 'text') return text;
  return text.length === 0 ? undefined : (JSON.parse(text) as unknown);
}
