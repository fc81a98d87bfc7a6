import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';

/** A request as the proxy received it, body read in full. `path` includes the query string. */
export interface ProxiedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** Which of the two upstream faces a request was sent to. */
export type Face = 'api' | 'auth';

/** Forwards a request (possibly rewritten) to the upstream face it came in on, and returns the answer. */
export type Forward = (request: ProxiedRequest) => Promise<ProxiedResponse>;

/** A fault sits between client and service: it may rewrite the request, the response, or answer on its own. */
export type Fault = (request: ProxiedRequest, forward: Forward, face: Face) => Promise<ProxiedResponse>;

export const passThrough: Fault = (request, forward) => forward(request);

export interface FaultProxy {
  /** `{base_url}` and `{auth_url}` as seen through the proxy. */
  baseUrl: string;
  authUrl: string;
  /** How many requests the fault let through or answered, for asserting that it was exercised. */
  readonly requests: number;
  close(): Promise<void>;
}

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'host',
  'upgrade',
]);

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || hopByHop.has(name)) continue;
    flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function replaceAll(text: string, pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.reduce((current, [from, to]) => current.split(from).join(to), text);
}

/** Rewrites addresses in a body only when it is text; binary bodies pass untouched. */
function rewriteBody(
  body: Buffer,
  contentType: string | undefined,
  pairs: ReadonlyArray<readonly [string, string]>,
) {
  if (body.length === 0 || !/json|text|xml|html|x-www-form-urlencoded/.test(contentType ?? '')) return body;
  return Buffer.from(replaceAll(body.toString('utf8'), pairs), 'utf8');
}

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

/**
 * A reverse proxy for both faces of the service (`{base_url}` and `{auth_url}`) on 127.0.0.1, with a fault in the
 * path of every request. Addresses of the upstream in bodies and `Location` headers are rewritten to the proxy's,
 * both ways, so the service behind it looks like a deployment at the proxy's address.
 */
export async function startFaultProxy(
  upstream: { baseUrl: string; authUrl: string },
  fault: Fault,
  timeoutMilliseconds = 30_000,
): Promise<FaultProxy> {
  const upstreamApi = new URL(upstream.baseUrl);
  const upstreamAuth = new URL(upstream.authUrl);
  const servers = { api: createServer(), auth: createServer() };
  const ports = { api: await listen(servers.api), auth: await listen(servers.auth) };
  const outward: Array<[string, string]> = [
    [upstreamApi.host, `127.0.0.1:${ports.api}`],
    [upstreamAuth.host, `127.0.0.1:${ports.auth}`],
  ];
  const inward = outward.map(([from, to]) => [to, from] as [string, string]);
  let requests = 0;

  const forwardTo =
    (face: Face): Forward =>
    (request) =>
      new Promise((resolve, reject) => {
        const target = face === 'api' ? upstreamApi : upstreamAuth;
        const body = rewriteBody(request.body, request.headers['content-type'], inward);
        const outgoing = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            method: request.method,
            path: replaceAll(request.path, inward),
            headers: {
              ...request.headers,
              host: target.host,
              ...(body.length > 0 ? { 'content-length': String(body.length) } : {}),
            },
            timeout: timeoutMilliseconds,
          },
          (incoming) => {
            const chunks: Buffer[] = [];
            incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
            incoming.on('error', reject);
            incoming.on('end', () => {
              const headers: Record<string, string | string[]> = {};
              for (const [name, value] of Object.entries(incoming.headers)) {
                if (value === undefined || hopByHop.has(name)) continue;
                headers[name] =
                  name === 'location' && typeof value === 'string' ? replaceAll(value, outward) : value;
              }
              const contentType =
                typeof headers['content-type'] === 'string' ? headers['content-type'] : undefined;
              resolve({
                status: incoming.statusCode ?? 502,
                headers,
                body: rewriteBody(Buffer.concat(chunks), contentType, outward),
              });
            });
          },
        );
        outgoing.on('timeout', () => outgoing.destroy(new Error('upstream timed out')));
        outgoing.on('error', reject);
        outgoing.end(body);
      });

  for (const face of ['api', 'auth'] as const) {
    const forward = forwardTo(face);
    servers[face].on('request', (incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', async () => {
        requests += 1;
        try {
          const response = await fault(
            {
              method: incoming.method ?? 'GET',
              path: incoming.url ?? '/',
              headers: flatHeaders(incoming.headers),
              body: Buffer.concat(chunks),
            },
            forward,
            face,
          );
          const head = incoming.method === 'HEAD';
          outgoing.writeHead(response.status, {
            ...response.headers,
            ...(head ? {} : { 'content-length': String(response.body.length) }),
          });
          outgoing.end(head ? undefined : response.body);
        } catch (error) {
          outgoing.writeHead(502, { 'content-type': 'text/plain' });
          outgoing.end(`fault proxy: ${(error as Error).message}`);
        }
      });
    });
  }

  return {
    baseUrl: `http://127.0.0.1:${ports.api}${upstreamApi.pathname.replace(/\/+$/, '')}`,
    authUrl: `http://127.0.0.1:${ports.auth}${upstreamAuth.pathname.replace(/\/+$/, '')}`,
    get requests() {
      return requests;
    },
    async close() {
      for (const server of Object.values(servers)) {
        server.closeAllConnections();
        server.close();
      }
      await Promise.all(Object.values(servers).map((server) => once(server, 'close')));
    },
  };
}

/** The JSON body of a response, or undefined when it is not JSON. */
export function jsonOf(message: { headers: Record<string, string | string[]>; body: Buffer }): unknown {
  if (message.body.length === 0) return undefined;
  try {
    return JSON.parse(message.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The same message with a new JSON body. */
export function withJson<Message extends { body: Buffer }>(message: Message, value: unknown): Message {
  return { ...message, body: Buffer.from(JSON.stringify(value), 'utf8') };
}
