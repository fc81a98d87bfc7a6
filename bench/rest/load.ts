// Driving one server with autocannon and reading what a run measured.
import autocannon from 'autocannon';
import { accountPlanMembers } from '../../generated/types/facts.js';

export const connections = 10;

export type Method = 'GET' | 'POST';

export interface Endpoint {
  label: string;
  method: Method;
  /** Path after the base path (`/v2`). */
  path: string;
  expectedStatus: number;
  body: string | undefined;
}

export interface RunMeasure {
  requestsPerSecond: number;
  p99Milliseconds: number;
  completed: number;
  /** Responses with another status than the endpoint's, plus connection errors and timeouts. */
  unexpected: number;
  unexpectedDetail: string[];
  /**
   * The share of the run the servers' event loop was working (performance.eventLoopUtilization); well below 100 %,
   * the rate was set partly by the load generator and the scheduler on the shared cores, not by the server alone.
   */
  serverBusy?: number;
  /**
   * This process's CPU time per response of the run, in µs: the servers' (and PGlite's thread's), not the load
   * generator's, which has a process of its own. Time the servers spent off the core does not count, so on a shared
   * machine it moves less with the neighbours than a rate does.
   */
  serverCpuMicroseconds?: number;
}

/**
 * Requests sent with one paid key over a whole run (a run is shorter than the plan's one-minute window): four fifths of
 * its limit, so no request of a run meets the limit.
 */
export const requestsPerKey = Math.floor(accountPlanMembers.paid.requestsPerMinute * 0.8);

/** How long past its own duration an autocannon run may take before the bench gives up on it. */
export const runGraceSeconds = 20;

/** Rejects after `milliseconds` so a stuck close cannot keep the bench alive. */
export async function within<T>(task: Promise<T>, milliseconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${milliseconds} ms`)), milliseconds);
  });
  try {
    return await Promise.race([task, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** One autocannon run; the load generator gets its own worker thread so it does not share the servers' event loop. */
export async function load(
  origin: string,
  requests: autocannon.Request[],
  seconds: number,
  connectionCount = connections,
): Promise<autocannon.Result> {
  let instance: autocannon.Instance | undefined;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      { url: origin, connections: connectionCount, duration: seconds, workers: 1, requests },
      (error: unknown, result) => (error === null || error === undefined ? resolve(result) : reject(error)),
    );
  });
  try {
    return await within(finished, (seconds + runGraceSeconds) * 1000, 'an autocannon run');
  } catch (error) {
    instance?.stop();
    throw error;
  }
}

export function measure(result: autocannon.Result, expectedStatus: number): RunMeasure {
  const counts = Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => ({
    status,
    count: stats.count ?? 0,
  }));
  const others = counts.filter((entry) => entry.status !== String(expectedStatus) && entry.count > 0);
  const unexpectedDetail = others.map((entry) => `${entry.count}×${entry.status}`);
  if (result.errors > 0) unexpectedDetail.push(`${result.errors} errors (${result.timeouts} timeouts)`);
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p99Milliseconds: result.latency.p99,
    completed: result.requests.total,
    unexpected: others.reduce((sum, entry) => sum + entry.count, 0) + result.errors,
    unexpectedDetail,
  };
}

/** The same request with each key in turn: autocannon's connections cycle through the list, spreading the load. */
export function requestsFor(
  endpoint: Endpoint,
  basePath: string,
  keys: readonly string[],
): autocannon.Request[] {
  return keys.map((key) => ({
    method: endpoint.method,
    path: `${basePath}${endpoint.path}`,
    headers: {
      authorization: `Bearer ${key}`,
      ...(endpoint.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(endpoint.body === undefined ? {} : { body: endpoint.body }),
  }));
}

export async function call(url: string, method: Method, key: string, body?: string): Promise<Response> {
  return fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body }),
  });
}
