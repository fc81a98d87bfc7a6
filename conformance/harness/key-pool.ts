import { accountPlanMembers, apiPolicies } from '../../generated/types/facts.js';

const windowMilliseconds = apiPolicies.rateLimit.windowSeconds * 1000;
/** Stay a little under the paid plan's limit so the suite's own traffic never trips it. */
const budget = Math.floor(accountPlanMembers.paid.requestsPerMinute * 0.9);

/**
 * The secret keys general checks use, all of one paid account, taken in turn (round robin, from an offset of its own:
 * each check file has a pool, and the target's windows outlive it, so no file may lean on the first key); a key that
 * has spent its budget in the current window is skipped, and when all have, the caller waits for the oldest request
 * to leave the window.
 */
export class KeyPool {
  readonly #sent = new Map<string, number[]>();
  #turn: number;

  constructor(
    private readonly keys: readonly string[],
    offset = process.pid,
  ) {
    if (keys.length === 0) throw new Error('KeyPool needs at least one key');
    this.#turn = offset % keys.length;
  }

  async next(): Promise<string> {
    for (;;) {
      const now = Date.now();
      let soonest = Number.POSITIVE_INFINITY;
      const start = this.#turn;
      this.#turn = (this.#turn + 1) % this.keys.length;
      for (let step = 0; step < this.keys.length; step++) {
        const key = this.keys[(start + step) % this.keys.length] as string;
        const recent = (this.#sent.get(key) ?? []).filter((at) => now - at < windowMilliseconds);
        this.#sent.set(key, recent);
        if (recent.length < budget) {
          recent.push(now);
          return key;
        }
        soonest = Math.min(soonest, (recent[0] ?? now) + windowMilliseconds - now);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(10, soonest)));
    }
  }
}
