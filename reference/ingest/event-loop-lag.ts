import { type EventLoopUtilization, monitorEventLoopDelay, performance } from 'node:perf_hooks';

export interface LoadReading {
  /** The typical lag of the event loop since the previous reading, in milliseconds. */
  lagMilliseconds: number;
  /** The share of that time the loop was busy rather than waiting for I/O, 0 to 1. */
  utilization: number;
  /** The share of that time spent handling devices' bytes (ingest and what the bus does with what it accepts). */
  ingestShare: number;
}

/** What the overload guard reads: how late and how busy the service runs, and how much of it is ingest's doing. */
export interface LoadSignal {
  read(): LoadReading;
  /** Ingest spent this long on one read from a device's socket. */
  recordIngestTime(milliseconds: number): void;
  close(): void;
}

const resolutionMilliseconds = 10;

/**
 * The event loop's lag and utilization from node:perf_hooks. The lag is the mean of the delays its 10 ms probe saw since the last reading,
 * less the probe's own period. A mean over the loop's turns, not the worst turn: a single pause (a garbage
 * collection, one database write) is one long turn among many short ones, while sustained overload makes every
 * turn long. The histogram is never reset (a reset drops the turn that spans it, the very turn that matters when a
 * turn takes seconds); readings difference its running count and sum instead. The utilization tells a service that is its own
 * bottleneck (busy nearly all the time) from one that merely waits for a CPU on a busy machine (late, but mostly idle),
 * and ingest's share of the time tells whether shedding ingest would help at all (a loop kept busy by something else,
 * REST traffic or clients in the same process, is not relieved by dropping samples).
 */
export class EventLoopLag implements LoadSignal {
  readonly #histogram = monitorEventLoopDelay({ resolution: resolutionMilliseconds });
  #count = 0;
  #sumNanoseconds = 0;
  #readAt = performance.now();
  #utilizationAt: EventLoopUtilization = performance.eventLoopUtilization();
  #ingestMilliseconds = 0;

  constructor() {
    this.#histogram.enable();
  }

  read(): LoadReading {
    const now = performance.now();
    const utilizationNow = performance.eventLoopUtilization();
    const utilization = performance.eventLoopUtilization(utilizationNow, this.#utilizationAt).utilization;
    this.#utilizationAt = utilizationNow;
    const count = this.#histogram.count;
    const sum = this.#histogram.mean * count;
    const turns = count - this.#count;
    // No probe completed since the last reading: the whole interval was one turn.
    const meanMilliseconds =
      turns > 0 ? (sum - this.#sumNanoseconds) / turns / 1e6 : now - this.#readAt + resolutionMilliseconds;
    const ingestShare = Math.min(1, this.#ingestMilliseconds / Math.max(1, now - this.#readAt));
    this.#ingestMilliseconds = 0;
    this.#count = count;
    this.#sumNanoseconds = sum;
    this.#readAt = now;
    return {
      lagMilliseconds: Math.max(0, meanMilliseconds - resolutionMilliseconds),
      utilization,
      ingestShare,
    };
  }

  recordIngestTime(milliseconds: number): void {
    this.#ingestMilliseconds += milliseconds;
  }

  close(): void {
    this.#histogram.disable();
  }
}
