import { createHash } from 'node:crypto';
import { apiPolicies } from '../../../generated/types/facts.js';
import { answer, type Received, type Receiver, startReceiver } from './receiver.js';

const deliveryIdHeader = apiPolicies.webhookDelivery.idempotency.header.toLowerCase();

/** One request as the receivers saw it and what they answered. */
export interface Receipt extends Received {
  webhookIndex: number;
  deliveryId: string;
  status: number;
}

export interface ChaosReceivers {
  urls: string[];
  receipts: Receipt[];
  /** Per delivery id, every receipt in arrival order. */
  byDelivery(): Map<string, Receipt[]>;
  close(): Promise<void>;
}

/**
 * Whether the flaky receiver refuses every attempt of this delivery: about 1 in 16, chosen by the delivery id so that
 * the outcome does not hang on chance (each of them must end undelivered after the whole schedule).
 */
export function refusedAlways(deliveryId: string): boolean {
  return (createHash('sha256').update(deliveryId).digest()[0] ?? 0) < 16;
}

/**
 * One receiver per webhook; the first refuses (500) every attempt of the deliveries `refusedAlways` picks and half of
 * the other requests at random, the others answer 204.
 */
export async function startChaosReceivers(count: number): Promise<ChaosReceivers> {
  const receipts: Receipt[] = [];
  const receivers: Receiver[] = [];
  for (let index = 0; index < count; index += 1) {
    const flaky = index === 0;
    receivers.push(
      await startReceiver((request, response, received) => {
        const deliveryId = String(request.headers[deliveryIdHeader]);
        const status = flaky && (refusedAlways(deliveryId) || Math.random() < 0.5) ? 500 : 204;
        receipts.push({ ...received, webhookIndex: index, deliveryId, status });
        answer(status)(request, response, received);
      }),
    );
  }
  return {
    urls: receivers.map((receiver) => receiver.url),
    receipts,
    byDelivery() {
      const map = new Map<string, Receipt[]>();
      for (const receipt of receipts) {
        const list = map.get(receipt.deliveryId) ?? [];
        list.push(receipt);
        map.set(receipt.deliveryId, list);
      }
      return map;
    },
    close: async () => {
      await Promise.all(receivers.map((receiver) => receiver.close()));
    },
  };
}
