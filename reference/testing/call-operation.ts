import type { FastifyInstance, HTTPMethods } from 'fastify';
import { routes } from '../../generated/server/routes.js';

export type OperationId = keyof typeof routes;

/** The operations of the REST API at `{base_url}`: every one without a server of its own (not the OAuth endpoints). */
export type RestOperationId = {
  [Id in OperationId]: (typeof routes)[Id]['serverUrl'] extends null ? Id : never;
}[OperationId];

export const restOperationIds = Object.values(routes)
  .filter((route) => route.serverUrl === null)
  .map((route) => route.operationId as RestOperationId)
  .sort();

/** The parts of a request a test chooses; the path comes from the generated route table. */
export interface RequestParts {
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  /** Sent as JSON unless it is a string, which is sent as it is. */
  body?: unknown;
  /** A bearer token; null or absent sends no Authorization header. */
  token?: string | null;
  headers?: Record<string, string>;
  /** The path as sent, for tests of malformed paths (the prefix is added). */
  rawPath?: string;
  /** Another method than the operation's, for tests of 405. */
  method?: HTTPMethods;
  /** A query string as sent (already encoded), instead of `query`. */
  rawQuery?: string;
  /** The whole path as sent, the prefix not added (paths outside the base path). */
  rawUrl?: string;
  /** The client's address as the socket gives it (`inject()` uses 127.0.0.1 by default). */
  remoteAddress?: string;
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
}

/** The path prefix of an app: the path of its server URL (`/v2`). */
export function prefixOf(url: string): string {
  return new URL(url).pathname.replace(/\/+$/, '');
}

/** `/streams/:streamId` with its parameters filled in, each encoded as one path segment. */
export function operationPath(operationId: OperationId, params: Record<string, string> = {}): string {
  return routes[operationId].url.replace(/:([A-Za-z]+)/g, (_whole, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operationId} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One operation through `inject()` (no port): its method and path from `routes`, the parts from the test. */
export async function callOperation(
  app: FastifyInstance,
  prefix: string,
  operationId: OperationId,
  parts: RequestParts = {},
): Promise<Reply> {
  const route = routes[operationId];
  const path = parts.rawPath ?? operationPath(operationId, parts.params);
  const query =
    parts.rawQuery ??
    new URLSearchParams(
      Object.entries(parts.query ?? {}).map(([name, value]): [string, string] => [name, String(value)]),
    ).toString();
  const headers: Record<string, string> = { ...parts.headers };
  if (parts.token !== undefined && parts.token !== null) headers.authorization = `Bearer ${parts.token}`;
  let payload: string | undefined;
  if (parts.body !== undefined) {
    payload = typeof parts.body === 'string' ? parts.body : JSON.stringify(parts.body);
    headers['content-type'] ??= route.requestBody?.contentType ?? 'application/json';
  }
  const response = await app.inject({
    method: parts.method ?? route.method,
    url: parts.rawUrl ?? `${prefix}${path}${query === '' ? '' : `?${query}`}`,
    headers,
    ...(payload === undefined ? {} : { payload }),
    ...(parts.remoteAddress === undefined ? {} : { remoteAddress: parts.remoteAddress }),
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    text: response.payload,
    body: parseJson(response.payload),
  };
}
