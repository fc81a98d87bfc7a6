// What the REST measures of issue 16 share: requests through Fastify's `inject()` with rotating keys, the POST and GET
// of the REST benchmark, CPU per request over one round, and the A/B of two trees.
import { loadavg } from 'node:os';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Endpoint } from '../rest/load.js';

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

/** The benchmark's POST /streams, for the measures that send it over sockets. */
export const createStreamEndpoint: Endpoint = {
  label: 'POST',
  method: 'POST',
  path: '/streams',
  expectedStatus: 201,
  body: streamBody,
};

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

/**
 * Two trees' references measured in turn (`measure` gives one round's CPU per request of a side): a warm-up round not
 * counted, then `rounds` rounds with the order flipped each time; prints each side's minimum, first quartile and median.
 * Stops both sides at the end.
 */
export async function compareTrees<Side extends { stop: () => Promise<void> }>(
  sides: { before: Side; after: Side },
  rounds: number,
  measure: (side: Side) => Promise<number>,
  label: string,
): Promise<void> {
  const figures: Record<string, number[]> = { before: [], after: [] };
  try {
    for (let index = 0; index <= rounds; index += 1) {
      const order = index % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
      for (const name of order) {
        const perRequest = await measure(sides[name]);
        if (index > 0) figures[name]?.push(perRequest);
      }
    }
  } finally {
    for (const side of Object.values(sides)) await side.stop();
  }
  for (const [name, values] of Object.entries(figures)) {
    const sorted = [...values].sort((left, right) => left - right);
    const at = (fraction: number) => (sorted[Math.floor(sorted.length * fraction)] ?? Number.NaN).toFixed(1);
    console.log(
      `${label} ${name.padEnd(6)} min ${at(0)} µs, first quartile ${at(0.25)}, median ${at(0.5)} (${rounds} rounds)`,
    );
  }
  console.log(loadAverageLine());
}
