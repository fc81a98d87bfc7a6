import { Worker } from 'node:worker_threads';
import { type Resolver, systemResolver } from './guarded-lookup.js';
import type { AttemptResult, Sender, SenderOptions, SignedRequest } from './sender.js';
import type { FromSenderThread, ThreadSenderData, ToSenderThread } from './sender-thread-main.js';

export interface ThreadSender extends Sender {
  /** The worker thread now running, if any (tests end it to check what a crash of it does). */
  thread(): Worker | null;
  /** Starts the thread now rather than at the first send (loading it takes ≈ 0.6 s on a loaded 2-core machine). */
  warm(): void;
}

/**
 * The sender on a worker thread of its own (ADR 0032): undici's request and response work, the socket writes and the
 * body dump run there, beside the service's thread. Sends posted in one turn share one message, as do outcomes.
 * If the thread ends unexpectedly, every send it held ends as a failed attempt (nothing was recorded for them, so
 * they are retried on the schedule: a receiver may see one again, never one whose 2xx was recorded), and the next
 * send starts a new thread. `startWebhookDelivery` starts it with the service (`warm`), so that the first send after
 * a start, a restart's due retries among them, does not wait for the thread to load.
 */
export function createThreadSender(options: SenderOptions): ThreadSender {
  const { resolver, ...rest } = options;
  const data: ThreadSenderData = { ...rest, remoteResolver: resolver !== undefined };
  const lookup: Resolver = resolver ?? systemResolver;
  const waiting = new Map<number, (result: AttemptResult) => void>();
  let nextId = 1;
  let worker: Worker | null = null;
  let queued: Array<{ id: number; signed: SignedRequest }> = [];
  let closed = false;

  const endAll = (reason: string) => {
    const ended = [...waiting.values()];
    waiting.clear();
    for (const done of ended) done({ delivered: false, statusCode: null, error: reason, durationMs: 0 });
  };

  const answerLookup = (thread: Worker, id: number, hostname: string) =>
    lookup(hostname).then(
      (addresses) => thread.postMessage({ looked: { id, addresses } } satisfies ToSenderThread),
      (error: NodeJS.ErrnoException) =>
        thread.postMessage({
          looked: { id, error: { message: String(error?.message ?? error), code: error?.code } },
        } satisfies ToSenderThread),
    );

  const started = (): Worker => {
    if (worker !== null) return worker;
    const thread = new Worker(new URL('./sender-thread.js', import.meta.url), {
      workerData: data,
      execArgv: [],
    });
    thread.on('message', (message: FromSenderThread) => {
      if ('lookup' in message) {
        void answerLookup(thread, message.lookup.id, message.lookup.hostname);
        return;
      }
      for (const { id, result } of message.results) {
        const done = waiting.get(id);
        waiting.delete(id);
        done?.(result);
      }
      // The thread keeps the process alive only while a send is waiting, as the in-process sender's sockets did.
      if (waiting.size === 0) thread.unref();
    });
    const ended = (reason: string) => {
      if (worker !== thread) return;
      worker = null;
      endAll(closed ? 'sender closed' : `sender thread ended: ${reason}`);
    };
    thread.on('error', (error) => ended(String(error)));
    thread.on('exit', (code) => ended(`exit code ${code}`));
    worker = thread;
    // Idle until a send is handed to it: it must not keep the process alive by itself.
    if (waiting.size === 0) thread.unref();
    return thread;
  };

  const flush = () => {
    const sends = queued;
    queued = [];
    const thread = started();
    thread.ref();
    thread.postMessage({ sends } satisfies ToSenderThread);
  };

  return {
    send(signed: SignedRequest): Promise<AttemptResult> {
      if (closed)
        return Promise.resolve({ delivered: false, statusCode: null, error: 'sender closed', durationMs: 0 });
      const id = nextId++;
      if (queued.length === 0) queueMicrotask(flush);
      queued.push({ id, signed });
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    // Sends still in flight at stop were released by the dispatcher and must not wait out their timeout.
    async close() {
      closed = true;
      const thread = worker;
      if (thread !== null) await thread.terminate();
      endAll('sender closed');
    },
    thread: () => worker,
    warm: () => {
      if (!closed) started();
    },
  };
}
