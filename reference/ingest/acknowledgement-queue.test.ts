import { describe, expect, it } from 'vitest';
import { AcknowledgementQueue } from './acknowledgement-queue.js';

function deferred() {
  let resolve: () => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<void>((resolvePromise, rejectPromise) => {
    resolve = resolvePromise;
    reject = rejectPromise;
  });
  return { promise, resolve, reject };
}

const reply = (id: number) => Buffer.from([id]);
const flushed = () => new Promise((resolve) => setImmediate(resolve));

describe('AcknowledgementQueue (x-ingest-rules.acknowledgedSample)', () => {
  it('writes at once when nothing waits (the in-process bus)', () => {
    const written: number[][] = [];
    const queue = new AcknowledgementQueue(
      (bytes) => written.push([...bytes]),
      () => {},
    );
    queue.add(reply(1), null);
    queue.add(reply(2), null);
    expect(written).toEqual([[1], [2]]);
  });

  it('holds replies until their batch is accepted, in arrival order, one write per batch', async () => {
    const written: number[][] = [];
    const queue = new AcknowledgementQueue(
      (bytes) => written.push([...bytes]),
      () => {},
    );
    const [first, second] = [deferred(), deferred()];
    queue.add(reply(1), first.promise);
    queue.add(reply(2), first.promise);
    queue.add(reply(3), null); // a dropped sample's PUBACK waits behind the accepted ones before it
    queue.add(reply(4), second.promise);
    second.resolve();
    await flushed();
    expect(written).toEqual([]); // the second batch may not overtake the first
    first.resolve();
    await flushed();
    expect(written).toEqual([[1, 2, 3], [4]]);
    queue.add(reply(5), null);
    expect(written.at(-1)).toEqual([5]);
  });

  it('never acknowledges a batch the bus refused, and says so once', async () => {
    const written: number[][] = [];
    const failures: unknown[] = [];
    const queue = new AcknowledgementQueue(
      (bytes) => written.push([...bytes]),
      (error) => failures.push(error),
    );
    const [first, second] = [deferred(), deferred()];
    queue.add(reply(1), first.promise);
    queue.add(reply(2), second.promise);
    first.reject(new Error('redis down'));
    second.resolve();
    await flushed();
    expect(written).toEqual([]);
    expect(failures).toHaveLength(1);
  });
});
