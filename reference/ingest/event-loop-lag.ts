import { type EventLoopUtilization, monitorEventLoopDelay, performance } from 'node:perf_hooks';

export interface LoadReading {
  /** The typical lag of the event loop since the previous reading, in milliseconds. */
  lagMilliseconds: number;
  /** The share of that time the loop was busy rather than waiting for I/O, 0 to 1. */
  utilization: number;
}

/** What the overload guard reads: how late and how busy the service runs, one reading per call. */
export interface LoadSignal {
  read(): LoadReading;
  close(): void;
}

const resolutionMilliseconds = 10;

/**
 * The event loop's lag and utilization from node:perf_hooks. The lag is the mean of the delays its 10 ms probe saw since the last reading,
 * less the probe's own period. A mean over the loop's turns, not the worst turn: a single pause (a garbage
 * collection, one database write) is one long turn among many short ones, while sustained overload makes every
 * turn long. The histogram is never reset (a reset drops the turn that spans it, the very turn that matters when a
 * turn takes seconds); readings difference its running count and sum instead. The utilization tells a service that is its own
 * bottleneck (busy nearly all the time) from one that merely waits for a CPU on a busy machine (late, but mostly idle).
 */
export class EventLoopLag implements LoadSignal {
  readonly #histogram = monitorEventLoopDelay({ resolution: resolutionMilliseconds });
  #count = 0;
  #sumNanoseconds = 0;
  #readAt = performance.now();
  #utilizationAt: EventLoopUtilization = performance.eventLoopUtilization();

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
    this.#count = count;
    this.#sumNanoseconds = sum;
    this.#readAt = now;
    return { lagMilliseconds: Math.max(0, meanMilliseconds - resolutionMilliseconds), utilization };
  }

  close(): void {
    this.#histogram.disable();
  }
}
