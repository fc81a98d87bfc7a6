// What `rest-inject.ts` and `rest-inject-ab.ts` share: requests through Fastify's `inject()` with rotating keys, the
// POST and GET of the REST benchmark, and CPU per request over one round.
import { loadavg } from 'node:os';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export type Operation = 'GET' | 'POST';
export type InjectRequest = (
  method: Operation,
  url: string,
  payload?: string,
) => Promise<LightMyRequestResponse>;

/** OPERATION=GET measures the page of 100 reports; anything else POST /streams. */
export const operationFromEnvironment = (): Operation => (process.env.OPERATION === 'GET' ? 'GET' : 'POST');

export const streamBody = JSON.stringify({
  title: 'Pump 7 vibration',
  quality: 'high',
  format: 'json',
  metadata: { site: 'plant-3' },
});

/** Requests to `app` under `basePath`, each key used for 64 requests in turn: the plan's rate window refuses none. */
export function injector(app: FastifyInstance, basePath: string, keys: readonly string[]): InjectRequest {
  let sent = 0;
  return (method, url, payload) =>
    app.inject({
      method,
      url: `${basePath}${url}`,
      headers: {
        authorization: `Bearer ${keys[Math.floor(sent++ / 64) % keys.length]}`,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
}

/** The 100 reports the GET lists. */
export async function createListedReports(request: InjectRequest): Promise<void> {
  for (let index = 0; index < 100; index += 1)
    await request('POST', '/reports', JSON.stringify({ title: `Bench report ${index + 1}` }));
}

/** CPU (user + system, µs) per request over `count` requests of `operation`, each checked for its success status. */
export async function cpuPerRequest(
  request: InjectRequest,
  operation: Operation,
  count: number,
): Promise<number> {
  const expected = operation === 'POST' ? 201 : 200;
  const before = process.cpuUsage();
  for (let index = 0; index < count; index += 1) {
    const reply =
      operation === 'POST'
        ? await request('POST', '/streams', streamBody)
        : await request('GET', '/reports?limit=100');
    if (reply.statusCode !== expected) throw new Error(`${reply.statusCode}: ${reply.body}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

export function loadAverageLine(): string {
  return `load average at the end: ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;
}
