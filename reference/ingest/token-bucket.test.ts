import { describe, expect, it } from 'vitest';
import { ingestLimits } from './ingest-rules.js';
import { rateBucket } from './token-bucket.js';

const rate = 1000;
const burst = Math.round(rate * ingestLimits.burstSeconds);

/** A deterministic pseudo-random sequence in [0, 1), so the jitter is the same on every run. */
function pseudoRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('the rate window (x-ingest-rules.rateWindow)', () => {
  it('never drops a device at exactly its rate whose messages arrive up to the burst late, bunched', () => {
    const random = pseudoRandom(7);
    const jitterMilliseconds = ingestLimits.burstSeconds * 1000 * 0.9;
    // Message k is due at k ms and arrives between 0 and the jitter late; arrivals are in order (one TCP stream).
    const arrivals: number[] = [];
    let latest = 0;
    for (let k = 0; k < 5000; k += 1) {
      latest = Math.max(latest, k + random() * jitterMilliseconds);
      arrivals.push(latest);
    }
    const bucket = rateBucket(rate, 0);
    expect(arrivals.filter((at) => !bucket.take(at))).toEqual([]);
  });

  it('never drops a device whose clock runs 500 ppm fast, over an hour', () => {
    const bucket = rateBucket(rate, 0);
    let dropped = 0;
    for (let k = 0; k < rate * 3600; k += 1) if (!bucket.take(k / 1.0005)) dropped += 1;
    expect(dropped).toBe(0);
  });

  it('drops within one second what exceeds burst + rate (with its drift tolerance)', () => {
    const bucket = rateBucket(rate, 0);
    const allowed = burst + Math.floor(rate * (1 + ingestLimits.rateTolerance));
    const sent = allowed + 1;
    let accepted = 0;
    for (let index = 0; index < sent; index += 1) if (bucket.take((index * 1000) / sent)) accepted += 1;
    expect(accepted).toBe(allowed);
  });

  it('a burst all at once: exactly the bucket passes', () => {
    const bucket = rateBucket(rate, 0);
    let accepted = 0;
    for (let index = 0; index < burst * 4; index += 1) if (bucket.take(0)) accepted += 1;
    expect(accepted).toBe(burst);
  });
});
