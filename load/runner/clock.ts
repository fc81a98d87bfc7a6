/**
 * One clock for latency: every thread reads wall-clock milliseconds with sub-millisecond resolution, and each
 * worker shifts its readings onto the main thread's clock by an offset measured at start (the NTP way: the
 * exchange with the shortest round trip wins), so send and receive times from different threads compare.
 */
export function clockNow(): number {
  return performance.timeOrigin + performance.now();
}

export interface ClockExchange {
  sentAt: number;
  workerAt: number;
  receivedAt: number;
}

/** The worker's clock minus the main clock, from several ping exchanges. */
export function clockOffset(exchanges: readonly ClockExchange[]): number {
  let best: ClockExchange | undefined;
  for (const exchange of exchanges) {
    const roundTrip = exchange.receivedAt - exchange.sentAt;
    if (best === undefined || roundTrip < best.receivedAt - best.sentAt) best = exchange;
  }
  if (best === undefined) return 0;
  return best.workerAt - (best.sentAt + best.receivedAt) / 2;
}
