import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock.js';
import { createAccount } from '../seed.js';
import { recordEvent } from '../services/events.js';
import { newId } from '../services/ids.js';
import { webhookObject } from '../services/webhooks.js';
import { openStore } from '../storage/open-store.js';
import type { WebhookRow } from '../storage/rows.js';
import type { Store } from '../storage/store.js';
import { checkedAddresses, systemResolver } from './guarded-lookup.js';
import { answer, type Receiver, startReceiver } from './testing/receiver.js';
import { startWebhookDelivery, type WebhookDelivery } from './webhook-delivery.js';

// Long enough for a healthy local receiver on a loaded machine, short enough for the test.
const timeoutMs = 3000;
const gigabyte = 1024 ** 3;

/** Receivers that break in each way the issue lists; every one must end as a failed attempt with its reason. */
async function faultyTargets(open: Array<{ close(): Promise<void> }>): Promise<Record<string, string>> {
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const started: Receiver = await startReceiver(...args);
    open.push(started);
    return started.url;
  };
  const closesMidResponse = createTcpServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Len'));
  });
  await new Promise<void>((resolve) => closesMidResponse.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise((resolve) => closesMidResponse.close(() => resolve())) });
  const chunk = Buffer.alloc(64 * 1024, 'x');
  return {
    hangs: await receiver(() => {}),
    'answers 1 GB': await receiver((_request, response) => {
      response.writeHead(500, { 'content-length': String(gigabyte) });
      let written = 0;
      // One chunk per turn of the event loop: the other receivers share this process.
      const pump = () => {
        if (written >= gigabyte || response.destroyed) return;
        written += chunk.length;
        if (response.write(chunk)) setImmediate(pump);
        else response.once('drain', pump);
      };
      response.on('close', () => response.removeAllListeners('drain'));
      pump();
    }),
    redirects: await receiver((_request, response) => response.writeHead(302, { location: '/' }).end()),
    'closes mid-response': `http://127.0.0.1:${(closesMidResponse.address() as AddressInfo).port}/hook`,
    '200 after the timeout': await receiver((_request, response) => {
      setTimeout(() => response.writeHead(200).end(), timeoutMs + 500);
    }),
    'DNS failure': 'https://no-such-receiver.invalid/hook',
    'TLS error': (await receiver(answer(204))).replace('http:', 'https:'),
    'resolves to a metadata address later': 'https://rebinding.example/hook',
    healthy: await receiver(answer(204)),
  };
}

const reasons: Record<string, RegExp> = {
  hangs: /^timeout: no response within 3 s$/,
  'answers 1 GB': /^status 500$/,
  redirects: /^redirect 302 not followed$/,
  'closes mid-response': /closed|HPE_|Parse/i,
  '200 after the timeout': /^timeout/,
  'DNS failure': /^DNS: /,
  'TLS error': /^TLS: /,
  'resolves to a metadata address later':
    /^target refused: rebinding\.example resolves to 169\.254\.169\.254/,
};

describe('faulty receivers through the dispatcher (real sockets, embedded store)', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  let store: Store;
  let dataDir: string;
  let delivery: WebhookDelivery;
  let targets: Record<string, string>;
  const webhookIds = new Map<string, string>();
  let account = '';
  const firstAttempt = async (name: string) => {
    const page = await store.deliveries.list(
      account,
      { limit: 1 },
      { webhookId: webhookIds.get(name) ?? '' },
    );
    return page?.items[0];
  };
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'delivery-faults-'));
    store = await openStore({ kind: 'embedded', dataDir: path.join(dataDir, 'database') });
    const clock = systemClock();
    const { accountId } = await createAccount(store, clock, 'paid', 'local-1');
    account = accountId;
    targets = await faultyTargets(open);
    const rows = new Map<string, WebhookRow>();
    for (const [name, url] of Object.entries(targets)) {
      const row = await store.webhooks.insert({
        id: newId('WebhookId'),
        accountId,
        url,
        events: ['webhook.test'],
        description: name,
        signingSecret: `whsec_${'f'.repeat(32)}`,
        status: 'active',
        createdAt: new Date(clock.now()).toISOString(),
      });
      webhookIds.set(name, row.id);
      rows.set(name, row);
    }
    let lookups = 0;
    const resolver = async (hostname: string) => {
      if (hostname !== 'rebinding.example') return systemResolver(hostname);
      return [{ address: lookups++ === 0 ? '93.184.216.34' : '169.254.169.254', family: 4 }];
    };
    // Creation checks the name once (public then); every connection after that resolves it again.
    await checkedAddresses('rebinding.example', { allowPrivate: true }, resolver);
    delivery = await startWebhookDelivery({
      store,
      clock,
      policy: { allowPrivate: true },
      log: { info() {} },
      soleOwner: true,
      timeoutMs,
      resolver,
    });
    const record = (name: string) => {
      const row = rows.get(name);
      if (row === undefined) throw new Error(`no webhook ${name}`);
      return recordEvent(
        store,
        clock,
        accountId,
        'webhook.test',
        { object: webhookObject(row) },
        { onlyWebhookId: row.id },
      );
    };
    // The healthy receiver first, alone: the store's first queries stall this process for a while on a loaded
    // machine, and that must not count against the others' timeouts.
    await record('healthy');
    const deadline = Date.now() + 30_000;
    while ((await firstAttempt('healthy'))?.status !== 'delivered' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    for (const name of Object.keys(reasons)) await record(name);
  });
  afterAll(async () => {
    await delivery?.stop();
    await Promise.all(open.map((each) => each.close()));
    await store?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('records each as a failed attempt with its reason, and still delivers to a healthy receiver', async () => {
    const firstAttempt = async (name: string) => {
      const page = await store.deliveries.list(
        account,
        { limit: 1 },
        { webhookId: webhookIds.get(name) ?? '' },
      );
      return page?.items[0];
    };
    const deadline = Date.now() + 30_000;
    for (const name of Object.keys(targets)) {
      while (((await firstAttempt(name))?.attempts.length ?? 0) === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await firstAttempt('healthy')).toMatchObject({ status: 'delivered' });
    for (const [name, reason] of Object.entries(reasons)) {
      const recorded = await firstAttempt(name);
      // Failed, with the next attempt scheduled: the queue goes on.
      expect(recorded?.status, name).toBe('pending');
      expect(recorded?.attempts, name).toHaveLength(1);
      expect(recorded?.attempts[0]?.error, name).toMatch(reason);
    }
  });
});
