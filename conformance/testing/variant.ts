import { type Fault, jsonOf, type ProxiedRequest, type ProxiedResponse, withJson } from './fault-proxy.js';
import type { Credentials } from './reference-under-test.js';

/** A deliberately broken variant of the service: what the proxy does, and which requirements that must fail. */
export interface BrokenVariant {
  name: string;
  fault(credentials: Credentials): Fault;
  /** Check file name fragments (vitest filters) that exercise the fault; the rest of the suite is not run. */
  files: string[];
  /** Exactly the requirements that must fail: all those named by the checks that notice the fault. */
  breaks: string[];
  /** Exhausts a rate window of a shared key (the free key), so it needs a reference of its own. */
  ownReference?: boolean;
  /**
   * What the same checks must fail under `--profile documented`, for a fault of a documented promise: the variant
   * runs in both profiles. Absent: the full profile only.
   */
  breaksDocumented?: string[];
}

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export const bearerOf = (request: ProxiedRequest) =>
  /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];

export const withBearer = (request: ProxiedRequest, key: string): ProxiedRequest => ({
  ...request,
  headers: { ...request.headers, authorization: `Bearer ${key}` },
});

export const pathOnly = (request: ProxiedRequest) => request.path.split('?')[0] ?? '';

/** Rewrites the JSON body of every response that `when` selects; others pass unchanged. */
export function rewriteJson(
  when: (request: ProxiedRequest, response: ProxiedResponse, body: Json) => boolean,
  change: (body: Json) => Json,
): Fault {
  return async (request, forward) => {
    const response = await forward(request);
    const body = jsonOf(response);
    if (!isObject(body) || !when(request, response, body)) return response;
    return withJson(response, change(structuredClone(body)));
  };
}

export const errorOf = (body: Json): Json | undefined => (isObject(body.error) ? body.error : undefined);
export const isList = (body: Json) => body.object === 'list' && Array.isArray(body.data);
export const lastPage = (body: Json) => isList(body) && body.hasMore === false;

export const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
