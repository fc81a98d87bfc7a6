import type { LookupAddress } from 'node:dns';
import { parentPort, workerData } from 'node:worker_threads';
import type { Resolver } from './guarded-lookup.js';
import { type AttemptResult, createSender, type SenderOptions, type SignedRequest } from './sender.js';

/** What the service's thread hands the sender thread at its start: the sender's options, functions excepted. */
export type ThreadSenderData = Omit<SenderOptions, 'resolver'> & { remoteResolver: boolean };

/** Messages in: sends to make, and answers to this thread's lookups when the resolver is the service's own. */
export type ToSenderThread =
  | { sends: Array<{ id: number; signed: SignedRequest }> }
  | {
      looked: {
        id: number;
        addresses?: LookupAddress[];
        error?: { message: string; code?: string | undefined };
      };
    };

/** Messages out: outcomes of sends, and lookups for the service's resolver. */
export type FromSenderThread =
  | { results: Array<{ id: number; result: AttemptResult }> }
  | { lookup: { id: number; hostname: string } };

if (parentPort === null) throw new Error('sender-thread-main runs on a worker thread');
const port = parentPort;
const data = workerData as ThreadSenderData;

// A resolver given by a test (a rebinding DNS) is a function of the service's thread: each lookup asks it there.
const lookups = new Map<number, { resolve(addresses: LookupAddress[]): void; reject(error: Error): void }>();
let nextLookup = 1;
const remoteResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    const id = nextLookup++;
    lookups.set(id, { resolve, reject });
    port.postMessage({ lookup: { id, hostname } } satisfies FromSenderThread);
  });

const { remoteResolver: remote, ...options } = data;
const sender = createSender(remote ? { ...options, resolver: remoteResolver } : options);

// Outcomes that end in the same turn share one message.
let results: Array<{ id: number; result: AttemptResult }> = [];
function answer(id: number, result: AttemptResult): void {
  if (results.length === 0)
    queueMicrotask(() => {
      port.postMessage({ results } satisfies FromSenderThread);
      results = [];
    });
  results.push({ id, result });
}

port.on('message', (message: ToSenderThread) => {
  if ('sends' in message) {
    for (const { id, signed } of message.sends) void sender.send(signed).then((result) => answer(id, result));
    return;
  }
  const waiting = lookups.get(message.looked.id);
  lookups.delete(message.looked.id);
  const { addresses, error } = message.looked;
  if (error !== undefined) waiting?.reject(Object.assign(new Error(error.message), { code: error.code }));
  else waiting?.resolve(addresses ?? []);
});
