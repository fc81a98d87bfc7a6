// Messages between a benchmark and its receiving child process (the service, or a subscriber of a broker).
import type { Device } from './driver.js';
import type { CountSummary } from './sample-counter.js';

export type ToChild =
  | { kind: 'prepare'; streams: number }
  | { kind: 'window'; start: number; end: number }
  | { kind: 'report' }
  | { kind: 'exit' };

export type FromChild =
  | { kind: 'ready'; url: string; devices: Device[] }
  | {
      kind: 'report';
      summary: CountSummary;
      /** CPU time of the child between the window's start and end, in microseconds (null: not measured here). */
      cpuMicroseconds: number | null;
      maxRssBytes: number;
      /** What the service shed for overload during the window (x-ingest-rules.overload); absent for a broker. */
      shedding?: { shedMessages: number; refusedConnections: number; episodes: number };
    };

/** CPU time (user + system) of this process in microseconds. */
export function ownCpuMicroseconds(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

/** Calls `measure` at the window's start and end (wall time) and keeps the difference. */
export function measureOverWindow(start: number, end: number, now: number, measure: () => number) {
  const result = { value: null as number | null };
  let atStart = 0;
  setTimeout(() => {
    atStart = measure();
  }, start - now);
  setTimeout(() => {
    result.value = measure() - atStart;
  }, end - now);
  return result;
}
