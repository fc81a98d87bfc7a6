export interface Flushable {
  flush(): void;
}

/**
 * Collects the subscribers with queued messages and flushes them all at the end of the event-loop turn: the messages
 * published in one turn leave in one frame per subscriber, and a thousand subscribers cost one `setImmediate`.
 */
export class FlushScheduler {
  #pending: Flushable[] = [];
  #scheduled = false;

  add(target: Flushable): void {
    this.#pending.push(target);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#run());
  }

  #run(): void {
    this.#scheduled = false;
    const due = this.#pending;
    this.#pending = [];
    for (const target of due) target.flush();
  }
}
