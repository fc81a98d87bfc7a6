/**
 * Samples the recorder shed because the database fell behind (Record.x-recording.backlog): counted per stream for
 * as long as the service runs (the metric), and told to `report` at most once per stream per interval of wall time,
 * with how many were shed since the last report, so a stalled database costs a log line a second, not one per sample.
 */
export class ShedCounter {
  readonly #total = new Map<string, number>();
  readonly #sinceReport = new Map<string, number>();
  readonly #reportedAt = new Map<string, number>();

  constructor(
    private readonly report: (streamId: string, shedSinceLastReport: number) => void,
    private readonly intervalMilliseconds = 1000,
    private readonly wallNow: () => number = Date.now,
  ) {}

  shed(streamId: string): void {
    this.#total.set(streamId, (this.#total.get(streamId) ?? 0) + 1);
    const since = (this.#sinceReport.get(streamId) ?? 0) + 1;
    const now = this.wallNow();
    const last = this.#reportedAt.get(streamId);
    if (last !== undefined && now - last < this.intervalMilliseconds) {
      this.#sinceReport.set(streamId, since);
      return;
    }
    this.#reportedAt.set(streamId, now);
    this.#sinceReport.set(streamId, 0);
    this.report(streamId, since);
  }

  /** Samples of `streamId` shed since the service started (0 when none). */
  of(streamId: string): number {
    return this.#total.get(streamId) ?? 0;
  }
}
