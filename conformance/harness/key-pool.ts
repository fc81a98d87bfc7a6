import { accountPlanMembers, apiPolicies } from '../../generated/types/facts.js';

const windowMilliseconds = apiPolicies.rateLimit.windowSeconds * 1000;
/** Stay a little under the paid plan's limit so the suite's own traffic never trips it. */
const budget = Math.floor(accountPlanMembers.paid.requestsPerMinute * 0.9);

/**
 * The secret keys general checks use, all of one paid account, taken in turn; a key that has spent its budget in the
 * current window is skipped, and when all have, the caller waits for the oldest request to leave the window.
 */
export class KeyPool {
  readonly #sent = new Map<string, number[]>();

  constructor(private readonly keys: readonly string[]) {
    if (keys.length === 0) throw new Error('KeyPool needs at least one key');
  }

  async next(): Promise<string> {
    for (;;) {
      const now = Date.now();
      let soonest = Number.POSITIVE_INFINITY;
      for (const key of this.keys) {
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
