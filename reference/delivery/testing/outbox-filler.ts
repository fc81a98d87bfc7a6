import type { Clock } from '../../clock.js';
import { persistentClock } from '../../persistent-clock.js';
import { createAccount } from '../../seed.js';
import { newId } from '../../services/ids.js';
import { webhookObject } from '../../services/webhooks.js';
import { openExecutor, type StoreLocation } from '../../storage/open-store.js';
import type { SqlExecutor } from '../../storage/sql-executor.js';
import { createSqlStore } from '../../storage/sql-store.js';
import type { Store } from '../../storage/store.js';

export interface FilledOutbox {
  accountId: string;
  webhooks: Array<{ id: string; url: string; signingSecret: string }>;
  deliveries: number;
}

/**
 * Records `eventsPerWebhook` `webhook.test` events for each receiver url, each with its pending delivery, before the
 * service starts on the same store: the rows recordEvent writes, inserted in bulk (one statement per table) because
 * 10 000 single transactions take minutes on a loaded machine. Interleaved across webhooks, as a busy account makes them.
 */
export async function fillOutbox(
  location: StoreLocation,
  timeScale: number,
  urls: readonly string[],
  eventsPerWebhook: number,
): Promise<FilledOutbox> {
  return withStore(location, timeScale, async (executor, store, clock) => {
    const { accountId } = await createAccount(store, clock, 'paid', 'local-1');
    const webhooks: Array<FilledOutbox['webhooks'][number] & { object: unknown }> = [];
    for (const [index, url] of urls.entries()) {
      const row = await store.webhooks.insert({
        id: newId('WebhookId'),
        accountId,
        url,
        events: ['webhook.test'],
        description: `chaos ${index}`,
        signingSecret: `whsec_chaos${String(index).padStart(2, '0')}${'x'.repeat(28)}`,
        status: 'active',
        createdAt: new Date(clock.now()).toISOString(),
      });
      webhooks.push({ id: row.id, url, signingSecret: row.signingSecret, object: webhookObject(row) });
    }
    const total = eventsPerWebhook * webhooks.length;
    await insertEvents(executor, clock, accountId, webhooks, 0, total);
    return {
      accountId,
      webhooks: webhooks.map(({ object: _object, ...webhook }) => webhook),
      deliveries: total,
    };
  });
}

/**
 * Records `eventsPerWebhook` more events for each webhook of `filled`, the same way, on a store a running service may
 * be using: a writer other than the service, whose rows a leasing dispatcher finds at its next poll. At the service's
 * time scale the clock's anchor is only read. Their ids follow those recorded so far.
 */
export async function addToOutbox(
  location: StoreLocation,
  timeScale: number,
  filled: FilledOutbox,
  eventsPerWebhook: number,
): Promise<FilledOutbox> {
  return withStore(location, timeScale, async (executor, store, clock) => {
    const webhooks: Array<{ id: string; object: unknown }> = [];
    for (const { id } of filled.webhooks) {
      const row = await store.webhooks.get(filled.accountId, id);
      if (row === null) throw new Error(`webhook ${id} is gone`);
      webhooks.push({ id, object: webhookObject(row) });
    }
    const total = eventsPerWebhook * webhooks.length;
    await insertEvents(executor, clock, filled.accountId, webhooks, filled.deliveries, total);
    return { ...filled, deliveries: filled.deliveries + total };
  });
}

/** `work` on the store at `location` and the service clock at `timeScale`; the connection is closed after it. */
async function withStore<Result>(
  location: StoreLocation,
  timeScale: number,
  work: (executor: SqlExecutor, store: Store, clock: Clock) => Promise<Result>,
): Promise<Result> {
  const executor = await openExecutor(location);
  try {
    const store = createSqlStore(executor);
    return await work(executor, store, await persistentClock(store, timeScale));
  } finally {
    await executor.close();
  }
}

/** `total` events numbered from `first`, spread over the webhooks in turn, each with its pending delivery. */
async function insertEvents(
  executor: SqlExecutor,
  clock: Clock,
  accountId: string,
  webhooks: ReadonlyArray<{ id: string; object: unknown }>,
  first: number,
  total: number,
): Promise<void> {
  const now = new Date(clock.now()).toISOString();
  const webhookIds = JSON.stringify(webhooks.map((webhook) => webhook.id));
  const webhookObjects = JSON.stringify(webhooks.map((webhook) => webhook.object));
  await executor.transaction(async (transaction) => {
    await transaction.query(
      `INSERT INTO events (id, account_id, type, created, livemode, data)
       SELECT 'evt_chaos' || n, $1, 'webhook.test', $2, false,
              jsonb_build_object('object', ($5::jsonb) -> (n % jsonb_array_length($5::jsonb))::integer)
       FROM generate_series($3::integer, $3::integer + $4::integer - 1) AS n`,
      [accountId, Math.floor(clock.now() / 1000), first, total, webhookObjects],
    );
    await transaction.query(
      `INSERT INTO deliveries (id, account_id, webhook_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
       SELECT 'whd_chaos' || n, $1, ($5::jsonb) ->> (n % jsonb_array_length($5::jsonb))::integer, 'evt_chaos' || n,
              'webhook.test', 'pending', '[]'::jsonb, $2::timestamptz, $2::timestamptz
       FROM generate_series($3::integer, $3::integer + $4::integer - 1) AS n ORDER BY n`,
      [accountId, now, first, total, webhookIds],
    );
  });
}
