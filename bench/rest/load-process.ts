// The REST benchmark's load generator in a process of its own (ADR 0022, wave 17): autocannon shares the cores with
// the servers, but not their process (V8's platform threads, the allocator, the process's scheduling).
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import type autocannon from 'autocannon';
import { runGraceSeconds, within } from './load.js';

/** One run asked of the child: for `seconds`, or until `amount` requests were answered. */
export type LoadOrder = { id: number } & LoadRequest;
type LoadRequest = {
  origin: string;
  requests: autocannon.Request[];
  connections: number;
} & ({ seconds: number } | { amount: number });

/** The run's result with the child's own CPU per response (the load generator's cost, not the server's). */
export interface LoadRun {
  result: autocannon.Result;
  clientMicroseconds: number;
}

type LoadAnswer = ({ id: number } & LoadRun) | { id: number; error: string };

/** The slowest rate a fixed-count run is given time for, requests a second, before it counts as stuck. */
const slowestRate = 500;

/** A long-lived child process running autocannon on request: started once, so no run pays a start-up. */
export class LoadProcess {
  readonly #child: ChildProcess;
  readonly #waiting = new Map<number, (answer: LoadAnswer) => void>();
  #nextId = 0;

  constructor() {
    this.#child = fork(path.join(import.meta.dirname, 'load-process-child.ts'), [], {
      execArgv: ['--import', 'tsx'],
      // Autocannon's result has histograms' summaries in plain objects; the structured clone carries them as they are.
      serialization: 'advanced',
    });
    this.#child.on('message', (message) => {
      const answer = message as LoadAnswer;
      this.#waiting.get(answer.id)?.(answer);
      this.#waiting.delete(answer.id);
    });
    // A child that dies (or never starts) fails the runs waiting on it at once, rather than at their deadline.
    this.#child.on('exit', (code, signal) => {
      for (const [id, answer] of this.#waiting)
        answer({ id, error: `the load process exited (${signal ?? code})` });
      this.#waiting.clear();
    });
  }

  /** One autocannon run of `seconds` against `origin`, cycling through `requests` on `connections` connections. */
  async run(
    origin: string,
    requests: autocannon.Request[],
    seconds: number,
    connections: number,
  ): Promise<autocannon.Result> {
    return (await this.#ask({ origin, requests, connections, seconds }, seconds)).result;
  }

  /** One run of `amount` requests (CPU per request over a fixed count: `bench/measure/`). */
  runAmount(
    origin: string,
    requests: autocannon.Request[],
    amount: number,
    connections: number,
  ): Promise<LoadRun> {
    return this.#ask({ origin, requests, connections, amount }, amount / slowestRate);
  }

  async #ask(order: LoadRequest, seconds: number): Promise<LoadRun> {
    const id = this.#nextId++;
    const answered = new Promise<LoadAnswer>((resolve) => this.#waiting.set(id, resolve));
    this.#child.send({ id, ...order } satisfies LoadOrder);
    const answer = await within(answered, (seconds + runGraceSeconds) * 1000, 'an autocannon run');
    if ('error' in answer) throw new Error(`autocannon: ${answer.error}`);
    return answer;
  }

  /** Ends the child (it exits when the channel closes) and waits for it. */
  async close(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.disconnect();
    await within(exited, 10_000, 'the load process exiting').catch(() => this.#child.kill('SIGKILL'));
  }
}
