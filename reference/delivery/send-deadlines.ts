/** An attempt whose time may run out: `expire` is called once its deadline (performance.now() ms) has passed. */
export interface Expiring {
  deadline: number;
  expire(): void;
}

/**
 * The deadlines of the sends in flight behind one timer (ADR 0034): every send has the same timeout, so the order they
 * started in is the order they expire in, and the earliest is the first of the set. A timer per send
 * (`AbortSignal.timeout`, an event target and a listener each) showed at ≈ 3 % of the service's thread.
 */
export class SendDeadlines {
  readonly #timeoutMs: number;
  readonly #open = new Set<Expiring>();
  #timer: NodeJS.Timeout | null = null;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  add(entry: Expiring): void {
    entry.deadline = performance.now() + this.#timeoutMs;
    this.#open.add(entry);
    if (this.#timer === null) this.#arm(this.#timeoutMs);
  }

  delete(entry: Expiring): void {
    this.#open.delete(entry);
  }

  /** Forgets every deadline (the sender is closing: its sends end with the connections). */
  clear(): void {
    this.#open.clear();
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #arm(milliseconds: number): void {
    this.#timer = setTimeout(() => this.#expire(), milliseconds);
    // Like AbortSignal.timeout: a deadline alone does not keep the process alive (its socket does).
    this.#timer.unref();
  }

  #expire(): void {
    this.#timer = null;
    const now = performance.now();
    for (const entry of this.#open) {
      if (entry.deadline > now) {
        this.#arm(entry.deadline - now);
        return;
      }
      this.#open.delete(entry);
      entry.expire();
    }
  }
}
