import type { DeliveryOutcome } from '../storage/rows.js';
import type { Store } from '../storage/store.js';

interface Waiting {
  outcome: DeliveryOutcome;
  done(applied: boolean): void;
}

/**
 * Writes attempt outcomes in batches: while one batch is being written the next collects, so under load one UPDATE
 * records hundreds of attempts. An outcome whose lease was lost (ran out and was claimed again) is not applied.
 */
export class Settler {
  readonly #store: Store;
  #waiting: Waiting[] = [];
  #writing: Promise<void> | null = null;

  constructor(store: Store) {
    this.#store = store;
  }

  /** Resolves to whether the outcome was applied (false when the lease was lost or the write failed). */
  settle(outcome: DeliveryOutcome): Promise<boolean> {
    return new Promise((done) => {
      this.#waiting.push({ outcome, done });
      this.#writing ??= this.#writeAll();
    });
  }

  /** Resolves once every outcome handed in so far is written. */
  async idle(): Promise<void> {
    while (this.#writing !== null) await this.#writing;
  }

  async #writeAll(): Promise<void> {
    while (this.#waiting.length > 0) {
      const batch = this.#waiting.splice(0, 500);
      let applied = new Set<string>();
      try {
        applied = new Set(await this.#store.deliveries.settle(batch.map((entry) => entry.outcome)));
      } catch {
        // The leases stay; they run out and the deliveries are attempted again.
      }
      for (const entry of batch) entry.done(applied.has(entry.outcome.id));
    }
    this.#writing = null;
  }
}
