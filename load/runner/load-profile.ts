import type { Stage } from './scenario.js';

/**
 * The load level over time, as k6's ramping executors shape it: linear ramps through the stages (from 0), then a
 * hold at 100% for `holdSeconds`. `area(t)` is the integral of the level in full-level seconds, so a driver at
 * `rate` per second at full level owes `floor(rate × area(t))` messages by `t`.
 */
export class LoadProfile {
  readonly totalSeconds: number;

  constructor(
    readonly stages: readonly Stage[],
    readonly holdSeconds: number,
  ) {
    this.totalSeconds = stages.reduce((sum, stage) => sum + stage.seconds, 0) + holdSeconds;
  }

  /** Level in [0, 1] at `seconds` after the start. */
  level(seconds: number): number {
    let start = 0;
    let from = 0;
    for (const stage of this.stages) {
      const to = stage.percent / 100;
      if (seconds < start + stage.seconds) return from + ((to - from) * (seconds - start)) / stage.seconds;
      start += stage.seconds;
      from = to;
    }
    return seconds <= this.totalSeconds ? 1 : 0;
  }

  /** ∫ level from 0 to `seconds` (capped at the end of the run). */
  area(seconds: number): number {
    const until = Math.min(Math.max(seconds, 0), this.totalSeconds);
    let start = 0;
    let from = 0;
    let area = 0;
    for (const stage of this.stages) {
      const to = stage.percent / 100;
      const span = Math.min(until - start, stage.seconds);
      if (span <= 0) return area;
      const levelAtSpan = from + ((to - from) * span) / stage.seconds;
      area += ((from + levelAtSpan) / 2) * span;
      start += stage.seconds;
      from = to;
    }
    return area + Math.max(0, until - start);
  }
}
