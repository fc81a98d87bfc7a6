import { routes } from '../../generated/server/routes.js';
import type { RestOperation } from './scenario.js';
import type { RestFixtures } from './workers/protocol.js';

export interface RestCall {
  method: string;
  /** The path under `{base_url}`, parameters filled from the fixtures. */
  path: string;
  body: string | undefined;
}

// The bodies of the operations that need one; the runner creates no more than these small objects.
const bodies: Partial<Record<RestOperation, unknown>> = {
  createStream: { title: 'load test stream' },
  createSubscriberToken: {},
};

/** Method and path of an operation from the generated routes, its `:parameters` taken from the fixtures. */
export function restCall(operation: RestOperation, fixtures: RestFixtures): RestCall {
  const route = routes[operation];
  const path = route.url.replace(/:([A-Za-z]+)/g, (_whole, name: string) => {
    const value = (fixtures as unknown as Record<string, string>)[name];
    if (value === undefined) throw new Error(`no fixture for the ${name} parameter of ${operation}`);
    return encodeURIComponent(value);
  });
  const body = bodies[operation];
  return { method: route.method, path, body: body === undefined ? undefined : JSON.stringify(body) };
}

/**
 * Smooth weighted round robin (as nginx balances upstreams): a deterministic sequence in which each operation
 * appears in proportion to its weight, evenly spread, so a short run already has the mix.
 */
export class WeightedRoundRobin<Item> {
  readonly #current: number[];
  readonly #total: number;

  constructor(private readonly entries: ReadonlyArray<{ item: Item; weight: number }>) {
    this.#current = entries.map(() => 0);
    this.#total = entries.reduce((sum, entry) => sum + entry.weight, 0);
  }

  next(): Item {
    let best = 0;
    this.entries.forEach((entry, index) => {
      this.#current[index] = (this.#current[index] ?? 0) + entry.weight;
      if ((this.#current[index] ?? 0) > (this.#current[best] ?? 0)) best = index;
    });
    this.#current[best] = (this.#current[best] ?? 0) - this.#total;
    return (this.entries[best] as { item: Item }).item;
  }
}
