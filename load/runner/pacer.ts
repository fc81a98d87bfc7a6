/**
 * Open-model pacing with honest accounting: the schedule says how many messages are owed by now; the driver sends
 * what is owed (catching up after a stall rather than skipping), and every message sent later than `lateAfterMs`
 * behind its due time is counted as late, with the worst lag kept. Nothing owed is ever dropped: at the end
 * `finish()` reports what is still owed, and the driver sends it (late) before it reports.
 */
export interface PacingReport {
  scheduled: number;
  sent: number;
  late: number;
  maxLagMs: number;
}

export class Pacer {
  #sent = 0;
  #late = 0;
  #maxLagMs = 0;

  /**
   * @param owedBy cumulative messages owed `elapsedMs` after the start (non-decreasing).
   * @param total messages owed over the whole run.
   */
  constructor(
    private readonly owedBy: (elapsedMs: number) => number,
    readonly total: number,
    private readonly lateAfterMs: number,
  ) {}

  /** How many messages to send at `elapsedMs`, at most `maxBatch` (the rest stays owed for the next turn). */
  take(elapsedMs: number, maxBatch = Number.POSITIVE_INFINITY): number {
    const owed = Math.min(this.total, this.#owed(elapsedMs));
    const count = Math.min(Math.max(0, owed - this.#sent), maxBatch);
    if (count === 0) return 0;
    const lateByNow = Math.min(this.total, this.#owed(elapsedMs - this.lateAfterMs));
    this.#late += Math.min(count, Math.max(0, lateByNow - this.#sent));
    this.#maxLagMs = Math.max(this.#maxLagMs, elapsedMs - this.dueAt(this.#sent + 1));
    this.#sent += count;
    return count;
  }

  /** When message number `index` (1-based) was due: the first instant it is owed (bisection on the schedule). */
  dueAt(index: number): number {
    let low = 0;
    let high = 1;
    while (this.#owed(high) < index && high < 1e12) high *= 2;
    for (let step = 0; step < 50 && high - low > 0.001; step += 1) {
      const middle = (low + high) / 2;
      if (this.#owed(middle) >= index) high = middle;
      else low = middle;
    }
    return high;
  }

  report(): PacingReport {
    return { scheduled: this.total, sent: this.#sent, late: this.#late, maxLagMs: this.#maxLagMs };
  }

  /** Messages still owed once the run is over. */
  remaining(): number {
    return this.total - this.#sent;
  }

  // A tiny epsilon so that 1000 × 0.001 s counts as 1, not 0.999….
  #owed(elapsedMs: number): number {
    return Math.floor(this.owedBy(elapsedMs) + 1e-9);
  }
}
