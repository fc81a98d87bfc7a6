// The receiving side's tally: what arrived of each stream, in which order, how late.

export interface CountSummary {
  received: number;
  reordered: number;
  p50Milliseconds: number;
  p99Milliseconds: number;
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

export class SampleCounter {
  #lastIndex = new Map<string, number>();
  #latencies: number[] = [];
  #reordered = 0;
  #window: { start: number; end: number } = { start: 0, end: Number.POSITIVE_INFINITY };

  /** Only samples sent inside the window count (the driver's warm-up and drain are left out). */
  setWindow(start: number, end: number): void {
    this.#window = { start, end };
  }

  reset(): void {
    this.#lastIndex.clear();
    this.#latencies = [];
    this.#reordered = 0;
  }

  add(streamId: string, index: number, sentAt: number, receivedAt: number): void {
    const last = this.#lastIndex.get(streamId) ?? -1;
    if (index <= last) this.#reordered += 1;
    else this.#lastIndex.set(streamId, index);
    if (sentAt >= this.#window.start && sentAt < this.#window.end) this.#latencies.push(receivedAt - sentAt);
  }

  summary(): CountSummary {
    const sorted = [...this.#latencies].sort((a, b) => a - b);
    return {
      received: sorted.length,
      reordered: this.#reordered,
      p50Milliseconds: percentile(sorted, 0.5),
      p99Milliseconds: percentile(sorted, 0.99),
    };
  }
}
