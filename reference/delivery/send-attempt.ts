import type { Dispatcher } from 'undici';
import { describeFailure } from './attempt-failure.js';
import type { Expiring, SendDeadlines } from './send-deadlines.js';

export interface AttemptResult {
  /** A 2xx status line arrived within the timeout. */
  delivered: boolean;
  statusCode: number | null;
  /** Why it failed; null when delivered. */
  error: string | null;
  durationMs: number;
}

/**
 * One POST, driven by undici's dispatch callbacks rather than `request()`: no response stream, no promise per step,
 * no abort signal. The status line decides the attempt; the body is counted up to the cap and the connection dropped
 * beyond it; the deadline (the receiver timeout, from the send) ends whatever is still open.
 */
export class SendAttempt implements Dispatcher.DispatchHandler, Expiring {
  deadline = 0;
  #abort: ((reason: Error) => void) | null = null;
  #statusCode: number | null = null;
  #durationMs = 0;
  #bodyBytes = 0;
  #ended = false;

  constructor(
    readonly started: number,
    readonly timeoutMs: number,
    readonly capBytes: number,
    readonly deadlines: SendDeadlines,
    readonly resolve: (result: AttemptResult) => void,
  ) {}

  onConnect(abort: (reason?: Error) => void): void {
    if (this.#ended) abort(timeoutError());
    else this.#abort = abort;
  }

  onHeaders(statusCode: number): boolean {
    this.#statusCode = statusCode;
    this.#durationMs = elapsedSince(this.started);
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.#bodyBytes += chunk.length;
    // Beyond the cap the rest is not read: the connection is dropped (a 1 GB answer costs 4 KiB).
    if (this.#bodyBytes > this.capBytes) this.#abort?.(new Error('response body over the cap'));
    return true;
  }

  onComplete(): void {
    this.#end();
  }

  onError(error: Error): void {
    // Once the status line arrived it decided the attempt; a body cut short afterwards changes nothing.
    if (this.#statusCode !== null) this.#end();
    else this.#fail(describeFailure(error, this.timeoutMs));
  }

  expire(): void {
    if (this.#ended) return;
    if (this.#statusCode !== null) {
      this.#abort?.(timeoutError());
      this.#end();
      return;
    }
    this.#fail(describeFailure(timeoutError(), this.timeoutMs));
    // Not yet on a connection: it is refused there (onConnect) instead of sent after its time.
    this.#abort?.(timeoutError());
  }

  #end(): void {
    if (this.#ended) return;
    const status = this.#statusCode ?? 0;
    if (status >= 200 && status < 300) {
      this.#settle({ delivered: true, statusCode: status, error: null, durationMs: this.#durationMs });
      return;
    }
    const reason = status >= 300 && status < 400 ? `redirect ${status} not followed` : `status ${status}`;
    this.#settle(failed(status, reason, this.#durationMs));
  }

  #fail(reason: string): void {
    if (!this.#ended) this.#settle(failed(null, reason, elapsedSince(this.started)));
  }

  #settle(result: AttemptResult): void {
    this.#ended = true;
    this.deadlines.delete(this);
    this.resolve(result);
  }
}

function timeoutError(): Error {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

export function elapsedSince(started: number): number {
  return Math.round(performance.now() - started);
}

export function failed(statusCode: number | null, error: string, durationMs: number): AttemptResult {
  return { delivered: false, statusCode, error, durationMs };
}
