/**
 * A latency histogram with log-spaced buckets (1% wide) from 1 µs up: mergeable across workers and seconds, and
 * small enough to post every second. Percentiles are read at the bucket's upper edge, so they err high by < 1%.
 */
const growth = 1.01;
const logGrowth = Math.log(growth);

export type HistogramBuckets = Record<number, number>;

function bucketOf(valueMs: number): number {
  const microseconds = valueMs * 1000;
  return microseconds < 1 ? 0 : Math.floor(Math.log(microseconds) / logGrowth) + 1;
}

function upperEdgeMs(bucket: number): number {
  return bucket === 0 ? 0.001 : growth ** bucket / 1000;
}

export class Histogram {
  readonly buckets = new Map<number, number>();
  count = 0;
  maxMs = 0;
  #sumMs = 0;

  record(valueMs: number): void {
    const bucket = bucketOf(Math.max(0, valueMs));
    this.buckets.set(bucket, (this.buckets.get(bucket) ?? 0) + 1);
    this.count += 1;
    this.#sumMs += valueMs;
    if (valueMs > this.maxMs) this.maxMs = valueMs;
  }

  merge(other: { buckets: HistogramBuckets; count: number; maxMs: number; sumMs: number }): void {
    for (const [bucket, count] of Object.entries(other.buckets)) {
      const key = Number(bucket);
      this.buckets.set(key, (this.buckets.get(key) ?? 0) + count);
    }
    this.count += other.count;
    this.#sumMs += other.sumMs;
    if (other.maxMs > this.maxMs) this.maxMs = other.maxMs;
  }

  /** `quantile` in [0, 1]; null when empty. */
  percentile(quantile: number): number | null {
    if (this.count === 0) return null;
    const rank = Math.max(1, Math.ceil(quantile * this.count));
    let seen = 0;
    for (const bucket of [...this.buckets.keys()].sort((a, b) => a - b)) {
      seen += this.buckets.get(bucket) ?? 0;
      if (seen >= rank) return Math.min(upperEdgeMs(bucket), this.maxMs);
    }
    return this.maxMs;
  }

  meanMs(): number | null {
    return this.count === 0 ? null : this.#sumMs / this.count;
  }

  /** A plain object to post between threads. */
  snapshot(): { buckets: HistogramBuckets; count: number; maxMs: number; sumMs: number } {
    return {
      buckets: Object.fromEntries(this.buckets),
      count: this.count,
      maxMs: this.maxMs,
      sumMs: this.#sumMs,
    };
  }
}
