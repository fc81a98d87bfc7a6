import { parentPort } from 'node:worker_threads';
import { clockNow } from '../clock.js';
import { Histogram } from '../histogram.js';
import type { Command, Report } from './protocol.js';

/** What a driver counts within one second; the runtime posts it and starts a fresh one. */
export class SecondStats {
  sent = 0;
  received = 0;
  clockSkewed = 0;
  latency = new Histogram();
  statuses: Record<string, number> = {};
}

export interface Driver {
  /** Connects everything; rejects with a message for the user when the target refuses. */
  prepare(): Promise<void>;
  /** Starts driving at `startAt` (main clock); `now()` reads the main clock. */
  start(startAt: number, now: () => number, stats: () => SecondStats): void;
  /** Running gap count, for the live "lost" figure (subscribers only). */
  gaps?(): number;
  /** Resolves with the final report once the driver has finished (publishers: when the schedule is done). */
  finished(): Promise<Report>;
  /** Asked to stop (subscribers, REST at the end of the run). */
  stop(): void;
}

function post(report: Report): void {
  parentPort?.postMessage(report);
}

/** The worker side of the protocol: clock exchange, ready/failed, per-second stats, the final report. */
export function runDriver(driver: Driver): void {
  let offsetMs = 0;
  const now = () => clockNow() - offsetMs;
  let current = new SecondStats();
  let timer: NodeJS.Timeout | undefined;
  const flush = (second: number) => {
    const stats = current;
    current = new SecondStats();
    post({
      type: 'second',
      second,
      sent: stats.sent,
      received: stats.received,
      clockSkewed: stats.clockSkewed,
      latency: stats.latency.snapshot(),
      statuses: stats.statuses,
      ...(driver.gaps === undefined ? {} : { gaps: driver.gaps() }),
    });
  };
  const begin = (startAt: number) => {
    let second = 0;
    const tick = () => {
      flush(second);
      second += 1;
      timer = setTimeout(tick, startAt + (second + 1) * 1000 - now());
    };
    timer = setTimeout(tick, startAt + 1000 - now());
    driver.start(startAt, now, () => current);
    driver.finished().then((report) => {
      clearTimeout(timer);
      flush(second);
      post(report);
    });
  };
  parentPort?.on('message', (command: Command) => {
    if (command.type === 'clock') post({ type: 'clock', sentAt: command.sentAt, workerAt: clockNow() });
    else if (command.type === 'offset') offsetMs = command.offsetMs;
    else if (command.type === 'start') begin(command.startAt);
    else driver.stop();
  });
  driver.prepare().then(
    () => post({ type: 'ready' }),
    (error: Error) => post({ type: 'failed', message: error.message }),
  );
}
