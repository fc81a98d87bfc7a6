// The suite's budget for requests the target counts against its client address (x-rate-limit.perAddress): like the
// key pool, a request waits for room rather than be refused, so a conformant target is never judged on a 429 the
// suite caused. The lanes of a run are separate processes speaking from one address, so the budget is a ledger file
// they share: each request appends its reservation, and is admitted when fewer than the budget of live entries come
// before it in the file (appends are ordered, so two lanes can never both take the last place).
import { appendFile, readFile } from 'node:fs/promises';
import { setTimeout } from 'node:timers/promises';
import { apiPolicies } from '../../generated/types/facts.js';

const defaultWindowMilliseconds = apiPolicies.rateLimit.windowSeconds * 1000;
/** A little under the limit: room for requests the suite cannot foresee (raw sockets, answers that surprise it). */
export const addressBudget = Math.floor(apiPolicies.rateLimit.perAddress.requestsPerWindow * 0.9);

type Line =
  | { op: 'reserve'; id: string; scope: string; at: number }
  | { op: 'cancel'; id: string }
  | { op: 'done'; id: string; scope: string; at: number; counted: boolean; what: string };

interface Entry {
  scope: string;
  /** When the answer came; null while the request is on its way. */
  doneAt: number | null;
  counted: boolean;
}

export interface BudgetOptions {
  /** Requests per window (default: 90% of the spec's perAddress.requestsPerWindow). */
  budget?: number;
  /** Default: the spec's rate window. */
  windowMilliseconds?: number;
  /** False: record only, never wait (CONFORMANCE_ADDRESS_BUDGET=off, to measure what the suite does without it). */
  enforce?: boolean;
}

export interface Reservation {
  /** Records the answer: counted by the target (it stays in the window until a window after now) or not (freed). */
  settle(counted: boolean, what: string): Promise<void>;
}

let sequence = 0;

/** A ledger line, or null for one another lane is still writing (the ledger is read while others append). */
function parsed(raw: string): Line | null {
  try {
    return JSON.parse(raw) as Line;
  } catch {
    return null;
  }
}

/**
 * A request's place in the window lasts until a window after its answer came: the target counted it on arrival, which
 * is no later than the answer, and a window the target opens later cannot hold it.
 */
function live(entry: Entry, now: number, windowMilliseconds: number): boolean {
  if (entry.doneAt === null) return true;
  return entry.counted && now < entry.doneAt + windowMilliseconds;
}

/** How long to wait before asking again: until the first answered entry leaves the window, or a moment if some are on their way. */
function waitFor(before: Array<[string, Entry]>, now: number, windowMilliseconds: number): number {
  const pending = before.some(([, entry]) => entry.doneAt === null);
  const ends = before.map(([, entry]) =>
    entry.doneAt === null ? Number.POSITIVE_INFINITY : entry.doneAt + windowMilliseconds - now,
  );
  return Math.max(50, Math.min(pending ? 250 : Number.POSITIVE_INFINITY, ...ends));
}

export class AddressBudget {
  readonly #budget: number;
  readonly #windowMilliseconds: number;
  readonly #enforce: boolean;

  constructor(
    private readonly ledger: string,
    options: BudgetOptions = {},
  ) {
    this.#budget = options.budget ?? addressBudget;
    this.#windowMilliseconds = options.windowMilliseconds ?? defaultWindowMilliseconds;
    this.#enforce = options.enforce ?? true;
  }

  async #read(): Promise<Array<[string, Entry]>> {
    const text = await readFile(this.ledger, 'utf8').catch(() => '');
    const entries = new Map<string, Entry>();
    for (const raw of text.split('\n')) {
      if (raw === '') continue;
      const line = parsed(raw);
      if (line === null) continue;
      if (line.op === 'reserve') entries.set(line.id, { scope: line.scope, doneAt: null, counted: true });
      else if (line.op === 'cancel') entries.delete(line.id);
      else entries.set(line.id, { scope: line.scope, doneAt: line.at, counted: line.counted });
    }
    return [...entries];
  }

  async #append(line: Line): Promise<void> {
    await appendFile(this.ledger, `${JSON.stringify(line)}\n`);
  }

  /** Waits for a place in `scope`'s window (one target's client-address window) and takes it. */
  async reserve(scope: string, signal?: AbortSignal): Promise<Reservation> {
    for (;;) {
      signal?.throwIfAborted();
      const id = `${process.pid}-${++sequence}`;
      await this.#append({ op: 'reserve', id, scope, at: Date.now() });
      const now = Date.now();
      const entries = await this.#read();
      const mine = entries.findIndex(([each]) => each === id);
      const before = entries
        .slice(0, mine)
        .filter(([, entry]) => entry.scope === scope && live(entry, now, this.#windowMilliseconds));
      if (!this.#enforce || before.length < this.#budget) return this.#reservation(id, scope);
      await this.#append({ op: 'cancel', id });
      await setTimeout(waitFor(before, now, this.#windowMilliseconds), undefined, { signal });
    }
  }

  /** Records a request the suite sent without a reservation (a credential it held valid) that the target counted. */
  async counted(scope: string, what: string): Promise<void> {
    const id = `${process.pid}-${++sequence}`;
    await this.#append({ op: 'done', id, scope, at: Date.now(), counted: true, what });
  }

  #reservation(id: string, scope: string): Reservation {
    return {
      settle: (counted, what) => this.#append({ op: 'done', id, scope, at: Date.now(), counted, what }),
    };
  }
}
