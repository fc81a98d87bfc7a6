import type { DeliveryOutcome } from '../storage/rows.js';
import type { Store } from '../storage/store.js';

const fullBatch = 256;
const maxBatch = 500;

interface Waiting {
  outcome: DeliveryOutcome;
  done(applied: boolean): void;
}

/**
 * Writes attempt outcomes in batches: one UPDATE records up to 500 attempts. Each write has a cost of its own
 * besides its rows (with the embedded store, PGlite's one connection serves nobody else meanwhile), so an outcome waits
 * up to `gatherMs` (the dispatcher's `settleGatherMs`), or until 256 have gathered, before the write starts; a failure
 * with a retry ahead starts it at once. An outcome whose lease was lost (ran out and was claimed again) or whose
 * delivery was replayed meanwhile is not applied.
 */
export class Settler {
  readonly #store: Store;
  readonly #gatherMs: number;
  #waiting: Waiting[] = [];
  #writing: Promise<void> | null = null;
  #gathered: (() => void) | null = null;

  constructor(store: Store, gatherMs: number) {
    this.#store = store;
    this.#gatherMs = gatherMs;
  }

  /** Resolves to whether the outcome was applied (false when the lease was lost or the write failed). */
  settle(outcome: DeliveryOutcome): Promise<boolean> {
    return new Promise((done) => {
      this.#waiting.push({ outcome, done });
      // A failure with a retry ahead does not wait for company: its retry can be claimed only once it is written,
      // and the schedule is a promise (a few ms at high time scales). Others gathered meanwhile share the write.
      if (this.#waiting.length >= fullBatch || outcome.status === 'pending') this.#gathered?.();
      this.#writing ??= this.#gatherAndWrite();
    });
  }

  /** Resolves once every outcome handed in so far is written. */
  async idle(): Promise<void> {
    this.#gathered?.();
    while (this.#writing !== null) await this.#writing;
  }

  async #gatherAndWrite(): Promise<void> {
    while (this.#waiting.length > 0) {
      if (
        this.#waiting.length < fullBatch &&
        !this.#waiting.some((entry) => entry.outcome.status === 'pending')
      )
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.#gatherMs);
          this.#gathered = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      this.#gathered = null;
      await this.#write(this.#waiting.splice(0, maxBatch));
    }
    this.#writing = null;
  }

  async #write(batch: Waiting[]): Promise<void> {
    let applied = new Set<string>();
    try {
      applied = new Set(await this.#store.deliveries.settle(batch.map((entry) => entry.outcome)));
    } catch {
      // The leases stay; they run out and the deliveries are attempted again.
    }
    for (const entry of batch) entry.done(applied.has(entry.outcome.id));
  }
}
