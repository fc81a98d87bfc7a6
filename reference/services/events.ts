import type { WebhookPayloads } from '../../generated/types/webhooks.js';
import { type Clock, isoTime } from '../clock.js';
import type { EventRow } from '../storage/rows.js';
import type { Store } from '../storage/store.js';
import { newId } from './ids.js';

export type EventType = keyof WebhookPayloads;

/**
 * The event log: every event the spec names is recorded here, and a pending delivery is queued for each active
 * webhook of the account subscribed to its type, in the same transaction, so no event is lost between the two.
 * The webhook dispatcher sends what is due.
 */
export async function recordEvent<Type extends EventType>(
  store: Store,
  clock: Clock,
  accountId: string,
  type: Type,
  data: WebhookPayloads[Type]['data'],
  options: { livemode?: boolean; onlyWebhookId?: string } = {},
): Promise<EventRow> {
  return store.transaction(async (transaction) => {
    const event = await transaction.events.insert({
      id: newId('EventId'),
      accountId,
      type,
      created: Math.floor(clock.now() / 1000),
      livemode: options.livemode ?? true,
      data: data as Record<string, unknown>,
    });
    // A requested test event goes to its one webhook, whatever that webhook subscribes to.
    const only =
      options.onlyWebhookId === undefined
        ? undefined
        : await transaction.webhooks.get(accountId, options.onlyWebhookId);
    const targets =
      only === undefined
        ? await transaction.webhooks.subscribedTo(accountId, type)
        : only === null
          ? []
          : [only];
    for (const webhook of targets) {
      await transaction.deliveries.insert({
        id: newId('DeliveryId'),
        accountId,
        webhookId: webhook.id,
        eventId: event.id,
        eventType: type,
        status: 'pending',
        attempts: [],
        nextAttemptAt: isoTime(clock),
        createdAt: isoTime(clock),
      });
    }
    return event;
  });
}

/** The Event object of the spec for a stored event. */
export function eventObject(event: EventRow) {
  return {
    id: event.id,
    object: 'event' as const,
    type: event.type,
    created: event.created,
    livemode: event.livemode,
    data: event.data,
  };
}
