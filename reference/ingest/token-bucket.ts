import { ingestLimits } from './ingest-rules.js';

/**
 * The per-stream rate window (`x-ingest-rules.rateWindow`): a bucket of `capacity` tokens, full at the start,
 * refilled continuously; each message takes one. Unlike a sliding second on arrival, a device sending at exactly
 * its rate never finds it empty when jitter bunches its messages, as long as no bunch exceeds the burst. The burst
 * also covers a pause of the service (stallAllowanceSeconds): the messages a device sent meanwhile wait in the
 * kernel and are read at once, so they are taken at one `now`, after a refill capped at the capacity.
 */
export class TokenBucket {
  #tokens: number;
  #updatedAt: number;

  constructor(
    readonly capacity: number,
    /** Tokens added per millisecond. */
    readonly refillPerMillisecond: number,
    now: number,
  ) {
    this.#tokens = capacity;
    this.#updatedAt = now;
  }

  /** Takes a token at `now` (wall milliseconds); false when the bucket is empty. */
  take(now: number): boolean {
    const elapsed = Math.max(0, now - this.#updatedAt);
    this.#tokens = Math.min(this.capacity, this.#tokens + elapsed * this.refillPerMillisecond);
    this.#updatedAt = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

/** The bucket of a stream whose quality allows `sampleRateHz` messages per second. */
export function rateBucket(sampleRateHz: number, now: number): TokenBucket {
  const capacity = Math.max(1, Math.round(sampleRateHz * ingestLimits.burstSeconds));
  return new TokenBucket(capacity, (sampleRateHz * (1 + ingestLimits.rateTolerance)) / 1000, now);
}
