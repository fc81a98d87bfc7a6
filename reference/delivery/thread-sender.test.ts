import { afterEach, describe, expect, it } from 'vitest';
import { answer, type Receiver, startReceiver } from './testing/receiver.js';
import { createThreadSender, type ThreadSender } from './thread-sender.js';

const timeoutMs = 1000;
const signed = (url: string, id = 'evt_1') => ({
  url,
  body: `{"id":"${id}"}`,
  headers: { 'content-type': 'application/json', 'x-test-id': id },
});
const open: Array<{ close(): Promise<void> }> = [];

function threadSender(options: Partial<Parameters<typeof createThreadSender>[0]> = {}): ThreadSender {
  const created = createThreadSender({ policy: { allowPrivate: true }, timeoutMs, ...options });
  open.push(created);
  return created;
}

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args);
  open.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((each) => each.close()));
});

// The sender's own cases (hang, 1 GB, redirect, TLS, DNS…) are in sender.test.ts, and faults.test.ts runs them
// through the dispatcher on the default in-process sender. Here: what crossing to a worker thread adds.
describe('thread sender', () => {
  it('sends from a worker thread, each send with its own outcome', async () => {
    const accepted = await receiver(answer(204));
    const redirecting = await receiver(answer(302));
    const client = threadSender();
    const results = await Promise.all([
      client.send(signed(accepted.url, 'a')),
      client.send(signed(redirecting.url, 'b')),
      client.send(signed(accepted.url, 'c')),
    ]);
    expect(results.map((result) => [result.delivered, result.statusCode, result.error])).toEqual([
      [true, 204, null],
      [false, 302, 'redirect 302 not followed'],
      [true, 204, null],
    ]);
    expect(client.thread()).not.toBeNull();
    expect(accepted.received.map((entry) => entry.body).sort()).toEqual(['{"id":"a"}', '{"id":"c"}']);
  });

  it('ends the sends of a thread that died as failed attempts, and sends again from a new thread', async () => {
    const hanging = await receiver(() => {});
    const accepted = await receiver(answer(204));
    const client = threadSender({ timeoutMs: 30_000 });
    const pending = client.send(signed(hanging.url));
    await hanging.waitFor(1);
    const first = client.thread();
    await first?.terminate();
    // Nothing was answered for it: the dispatcher records a failed attempt and retries it on the schedule.
    expect(await pending).toMatchObject({
      delivered: false,
      statusCode: null,
      error: 'sender thread ended: exit code 1',
    });
    expect(await client.send(signed(accepted.url))).toMatchObject({ delivered: true, statusCode: 204 });
    expect(client.thread()).not.toBe(first);
  });

  it('asks a resolver of the service thread for every connection (a rebinding name is refused)', async () => {
    const target = await receiver(answer(204));
    const port = new URL(target.url).port;
    let lookups = 0;
    const resolver = async () => [{ address: lookups++ === 0 ? '127.0.0.1' : '169.254.169.254', family: 4 }];
    const client = threadSender({ resolver });
    expect(await client.send(signed(`http://receiver.example:${port}/hook`))).toMatchObject({
      delivered: true,
    });
    await client.close();
    const again = threadSender({ resolver });
    const refused = await again.send(signed(`http://receiver.example:${port}/hook`));
    expect(refused).toMatchObject({ delivered: false, statusCode: null });
    expect(refused.error).toMatch(/^target refused: receiver\.example resolves to 169\.254\.169\.254/);
  });
});
