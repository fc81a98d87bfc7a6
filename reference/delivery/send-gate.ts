/**
 * At most `limit` sends at once per webhook; the rest wait their turn in claim order. The dispatcher may claim more
 * of one webhook than it sends at once (the embedded store's claims are costly, so each one fetches several rounds),
 * while a slow receiver still holds only `limit` connections and a send's timeout starts when it really leaves.
 */
export class SendGate {
  readonly #limit: number;
  readonly #sending = new Map<string, number>();
  readonly #waiting = new Map<string, Array<() => void>>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Runs `send` now or once a send of the same webhook ends; `first` (a due retry) goes ahead of the queue. */
  run(webhookId: string, send: () => Promise<void>, first = false): Promise<void> {
    return new Promise((resolve) => {
      const start = () => {
        this.#sending.set(webhookId, (this.#sending.get(webhookId) ?? 0) + 1);
        void send().finally(() => {
          this.#release(webhookId);
          resolve();
        });
      };
      if ((this.#sending.get(webhookId) ?? 0) < this.#limit) start();
      else {
        const queue = this.#waiting.get(webhookId);
        if (queue === undefined) this.#waiting.set(webhookId, [start]);
        else if (first) queue.unshift(start);
        else queue.push(start);
      }
    });
  }

  #release(webhookId: string): void {
    const left = (this.#sending.get(webhookId) ?? 1) - 1;
    if (left === 0) this.#sending.delete(webhookId);
    else this.#sending.set(webhookId, left);
    const queue = this.#waiting.get(webhookId);
    const next = queue?.shift();
    if (queue !== undefined && queue.length === 0) this.#waiting.delete(webhookId);
    next?.();
  }
}
