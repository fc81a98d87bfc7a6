import { Worker } from 'node:worker_threads';
import type { Role } from './aggregator.js';
import { type ClockExchange, clockNow, clockOffset } from './clock.js';
import type { Command, Report, WorkerSetup } from './workers/protocol.js';

const entries: Record<Role, URL> = {
  publisher: new URL('./workers/publisher-worker.ts', import.meta.url),
  subscriber: new URL('./workers/subscriber-worker.ts', import.meta.url),
  rest: new URL('./workers/rest-worker.ts', import.meta.url),
};
const bootstrap = new URL('./workers/bootstrap.mjs', import.meta.url);

type FinalReport = Extract<Report, { type: 'publisher-final' | 'subscriber-final' | 'rest-final' }>;

/** One driver thread: ready or failed after connecting, per-second reports, one final report. */
export class DriverWorker {
  readonly #worker: Worker;
  readonly ready: Promise<void>;
  readonly final: Promise<FinalReport>;
  #clockReplies: Array<(report: Extract<Report, { type: 'clock' }>) => void> = [];

  constructor(
    readonly role: Role,
    readonly index: number,
    setup: WorkerSetup,
    onSecond: (report: Extract<Report, { type: 'second' }>) => void,
  ) {
    this.#worker = new Worker(bootstrap, { workerData: { entry: entries[role].href, setup } });
    let resolveReady: () => void = () => {};
    let rejectReady: (error: Error) => void = () => {};
    let resolveFinal: (report: FinalReport) => void = () => {};
    this.ready = new Promise((resolve, reject) => {
      resolveReady = resolve;
      rejectReady = reject;
    });
    this.final = new Promise((resolve) => {
      resolveFinal = resolve;
    });
    this.#worker.on('error', (error) => rejectReady(error));
    this.#worker.on('message', (report: Report) => {
      if (report.type === 'ready') resolveReady();
      else if (report.type === 'failed') rejectReady(new Error(report.message));
      else if (report.type === 'clock') this.#clockReplies.shift()?.(report);
      else if (report.type === 'second') onSecond(report);
      else resolveFinal(report);
    });
  }

  send(command: Command): void {
    this.#worker.postMessage(command);
  }

  /** Measures this thread's clock against the main one and tells the worker its offset. */
  async calibrate(rounds = 7): Promise<number> {
    const exchanges: ClockExchange[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const reply = new Promise<Extract<Report, { type: 'clock' }>>((resolve) =>
        this.#clockReplies.push(resolve),
      );
      this.send({ type: 'clock', sentAt: clockNow() });
      const { sentAt, workerAt } = await reply;
      exchanges.push({ sentAt, workerAt, receivedAt: clockNow() });
    }
    const offsetMs = clockOffset(exchanges);
    this.send({ type: 'offset', offsetMs });
    return offsetMs;
  }

  terminate(): Promise<number> {
    return this.#worker.terminate();
  }
}

/** Splits `items` into at most `parts` nearly equal, non-empty chunks. */
export function split<Item>(items: readonly Item[], parts: number): Item[][] {
  const count = Math.max(1, Math.min(parts, items.length));
  const chunks: Item[][] = Array.from({ length: count }, () => []);
  items.forEach((item, index) => {
    chunks[index % count]?.push(item);
  });
  return chunks.filter((chunk) => chunk.length > 0);
}
