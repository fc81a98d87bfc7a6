/**
 * Time for everything that schedules: token expiry, rate windows, webhook retries. A scaled clock runs `scale` times
 * faster than the wall clock from the moment it starts, so the 10 h retry schedule can pass in seconds in a test.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch, in scaled time. */
  now(): number;
  /** Calls `callback` after `milliseconds` of scaled time; returns a cancel function. */
  schedule(callback: () => void, milliseconds: number): () => void;
  readonly scale: number;
}

export function systemClock(scale = 1): Clock {
  if (!(scale > 0)) throw new RangeError(`time scale must be positive, got ${scale}`);
  const origin = Date.now();
  return {
    scale,
    now: () => origin + (Date.now() - origin) * scale,
    schedule(callback, milliseconds) {
      const timer = setTimeout(callback, Math.max(0, milliseconds / scale));
      timer.unref();
      return () => clearTimeout(timer);
    },
  };
}

/** A clock that moves only when told to, for unit tests. */
export class ManualClock implements Clock {
  readonly scale = 1;
  #now: number;
  #timers: Array<{ at: number; callback: () => void; cancelled: boolean }> = [];

  constructor(start = Date.parse('2026-11-21T09:00:00.000Z')) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  schedule(callback: () => void, milliseconds: number): () => void {
    const timer = { at: this.#now + milliseconds, callback, cancelled: false };
    this.#timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  /** Moves time forward, firing due timers in order. */
  advance(milliseconds: number): void {
    const target = this.#now + milliseconds;
    for (;;) {
      const due = this.#timers
        .filter((timer) => !timer.cancelled && timer.at <= target)
        .sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      this.#timers = this.#timers.filter((timer) => timer !== due);
      this.#now = due.at;
      due.callback();
    }
    this.#now = target;
  }
}

/** The last instant written and its text: requests a millisecond apart or less (most, under load) share it. */
let lastInstant = Number.NaN;
let lastText = '';

export function isoTime(clock: Clock): string {
  const instant = clock.now();
  if (instant !== lastInstant) {
    lastText = new Date(instant).toISOString();
    lastInstant = instant;
  }
  return lastText;
}
