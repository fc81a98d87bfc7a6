import { describe, expect, it } from 'vitest';
import { systemClock } from '../clock.js';
import { deliveryRow, eventRow, newAccount, webhookRow } from '../storage/testing/fixtures.js';
import { createMemoryStore } from '../storage/testing/memory-store.js';
import { startReceiver } from './testing/receiver.js';
import { startWebhookDelivery } from './webhook-delivery.js';

describe('dispatcher', () => {
  it('keeps claiming once every slot has been taken (more due than it may hold at once)', async () => {
    // The in-memory store has the SQL stores' claim rules (storage contract) and starts at once.
    const store = createMemoryStore();
    const clock = systemClock();
    const accountId = await newAccount(store);
    const receivers = [await startReceiver(), await startReceiver()];
    const ids: string[] = [];
    for (const receiver of receivers) {
      const webhook = await store.webhooks.insert(webhookRow(accountId, { url: receiver.url }));
      for (let index = 0; index < 20; index += 1) {
        const event = await store.events.insert(eventRow(accountId));
        const due = new Date(clock.now()).toISOString();
        ids.push((await store.deliveries.insert(deliveryRow(event, webhook.id, { nextAttemptAt: due }))).id);
      }
    }
    const delivery = await startWebhookDelivery({
      store,
      clock,
      policy: { allowPrivate: true },
      log: { info() {} },
      soleOwner: true,
      // Two full claims take every slot: the loop must wait for sends to end, not spin without yielding.
      tuning: { maxInFlight: 8, batchSize: 4, perWebhook: 2 },
    });
    try {
      await Promise.all(receivers.map((receiver) => receiver.waitFor(20, 15_000)));
      const received = receivers.flatMap((receiver) =>
        receiver.received.map((request) => request.headers['service-delivery-id']),
      );
      expect(new Set(received)).toEqual(new Set(ids));
    } finally {
      await delivery.stop();
      await Promise.all(receivers.map((receiver) => receiver.close()));
    }
  });
});
