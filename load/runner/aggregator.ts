import { Histogram } from './histogram.js';
import type { LatencySummary, TimelinePoint } from './result.js';
import type { Report } from './workers/protocol.js';

type SecondReport = Extract<Report, { type: 'second' }>;
export type Role = 'publisher' | 'subscriber' | 'rest';

class Second {
  sent = 0;
  received = 0;
  latency = new Histogram();
  restRequests = 0;
  restLatency = new Histogram();
  gaps = 0;
}

export function latencySummary(histogram: Histogram): LatencySummary {
  return {
    count: histogram.count,
    p50: histogram.percentile(0.5),
    p95: histogram.percentile(0.95),
    p99: histogram.percentile(0.99),
    max: histogram.count === 0 ? null : histogram.maxMs,
    mean: histogram.meanMs(),
  };
}

/** Folds the drivers' per-second reports into a timeline and run totals. */
export class Aggregator {
  readonly #seconds = new Map<number, Second>();
  readonly #gapsByWorker = new Map<number, number>();
  readonly latency = new Histogram();
  readonly restLatency = new Histogram();
  readonly statuses: Record<string, number> = {};
  sent = 0;
  received = 0;
  clockSkewed = 0;

  add(role: Role, worker: number, report: SecondReport): void {
    let second = this.#seconds.get(report.second);
    if (second === undefined) {
      second = new Second();
      this.#seconds.set(report.second, second);
    }
    if (role === 'publisher') {
      second.sent += report.sent ?? 0;
      this.sent += report.sent ?? 0;
    } else if (role === 'subscriber') {
      second.received += report.received ?? 0;
      this.received += report.received ?? 0;
      this.clockSkewed += report.clockSkewed ?? 0;
      if (report.latency !== undefined) {
        second.latency.merge(report.latency);
        this.latency.merge(report.latency);
      }
      this.#gapsByWorker.set(worker, report.gaps ?? 0);
      second.gaps = this.gaps();
    } else {
      second.restRequests += report.sent ?? 0;
      if (report.latency !== undefined) {
        second.restLatency.merge(report.latency);
        this.restLatency.merge(report.latency);
      }
      for (const [status, count] of Object.entries(report.statuses ?? {}))
        this.statuses[status] = (this.statuses[status] ?? 0) + count;
    }
  }

  /** Samples missing below the highest received, summed over subscribers: the live "lost" figure. */
  gaps(): number {
    let sum = 0;
    for (const gaps of this.#gapsByWorker.values()) sum += gaps;
    return sum;
  }

  point(second: number): TimelinePoint {
    const entry = this.#seconds.get(second) ?? new Second();
    return {
      second,
      sent: entry.sent,
      received: entry.received,
      p50: entry.latency.percentile(0.5),
      p99: entry.latency.percentile(0.99),
      restRequests: entry.restRequests,
      restP99: entry.restLatency.percentile(0.99),
      gaps: entry.gaps,
    };
  }

  timeline(): TimelinePoint[] {
    const last = Math.max(-1, ...this.#seconds.keys());
    return Array.from({ length: last + 1 }, (_unused, second) => this.point(second));
  }
}
