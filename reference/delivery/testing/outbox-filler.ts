import { persistentClock } from '../../persistent-clock.js';
import { createAccount } from '../../seed.js';
import { recordEvent } from '../../services/events.js';
import { newId } from '../../services/ids.js';
import { webhookObject } from '../../services/webhooks.js';
import { openStore, type StoreLocation } from '../../storage/open-store.js';

export interface FilledOutbox {
  accountId: string;
  webhooks: Array<{ id: string; url: string; signingSecret: string }>;
  deliveries: number;
}

/**
 * Records `eventsPerWebhook` events for each receiver url through the service's own outbox code (recordEvent: the
 * event and its pending delivery in one transaction), before the service starts on the same store.
 */
export async function fillOutbox(
  location: StoreLocation,
  timeScale: number,
  urls: readonly string[],
  eventsPerWebhook: number,
): Promise<FilledOutbox> {
  const store = await openStore(location);
  try {
    const clock = await persistentClock(store, timeScale);
    const { accountId } = await createAccount(store, clock, 'paid', 'local-1');
    const webhooks: FilledOutbox['webhooks'] = [];
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
      webhooks.push({ id: row.id, url, signingSecret: row.signingSecret });
    }
    // Interleaved across webhooks, in transactions of a few hundred events, as a busy account would produce them.
    for (let round = 0; round < eventsPerWebhook; round += 25) {
      await store.transaction(async (transaction) => {
        for (let step = round; step < Math.min(round + 25, eventsPerWebhook); step += 1)
          for (const webhook of webhooks) {
            const row = {
              ...webhook,
              accountId,
              events: ['webhook.test'],
              description: null,
              status: 'active',
            };
            await recordEvent(
              transaction,
              clock,
              accountId,
              'webhook.test',
              { object: webhookObject({ ...row, createdAt: new Date(clock.now()).toISOString() }) },
              { onlyWebhookId: webhook.id },
            );
          }
      });
    }
    return { accountId, webhooks, deliveries: webhooks.length * eventsPerWebhook };
  } finally {
    await store.close();
  }
}
