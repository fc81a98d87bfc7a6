import { afterAll, beforeAll } from 'vitest';
import { eventTypeMembers } from '../../../generated/types/facts.js';
import type { CheckContext } from '../../harness/check.js';
import { expectThat } from '../../harness/check.js';
import { send } from '../../harness/probe.js';
import { currentTarget } from '../../harness/target.js';
import { type Behaviour, type ReceivedDelivery, WebhookReceiver } from '../../harness/webhook-receiver.js';
import type { Clock } from './data-plane.js';

export const allEventTypes = Object.keys(eventTypeMembers);

export interface RegisteredWebhook {
  id: string;
  signingSecret: string;
  route: string;
  url: string;
  clock: Clock;
}

/** A delivery with its JSON body parsed (undefined when it is not JSON). */
export interface ParsedDelivery extends ReceivedDelivery {
  event: Record<string, unknown> | undefined;
}

export function parsed(delivery: ReceivedDelivery): ParsedDelivery {
  let event: Record<string, unknown> | undefined;
  try {
    event = JSON.parse(delivery.rawBody.toString('utf8')) as Record<string, unknown>;
  } catch {
    event = undefined;
  }
  return { ...delivery, event };
}

/** The object an event is about (`data.object`). */
export const objectOf = (delivery: ParsedDelivery) =>
  ((delivery.event?.data as { object?: Record<string, unknown> } | undefined)?.object ?? {}) as Record<
    string,
    unknown
  >;

/**
 * The receiver of one check file: started before its checks on --webhook-listen, stopped after, with every webhook
 * it registered deleted. Unavailable (checks skip) when the target cannot reach a receiver.
 */
export function useReceiver() {
  let receiver: WebhookReceiver | null = null;
  const registered: RegisteredWebhook[] = [];
  beforeAll(async () => {
    const target = currentTarget();
    if (target.webhookListen === null) return;
    receiver = await WebhookReceiver.start(target.webhookListen, target.webhookPublicUrl);
  });
  afterAll(async () => {
    for (const webhook of registered)
      await send('DELETE', `/webhooks/${webhook.id}`, { server: webhook.clock === 'fast' ? 'fast' : 'api' });
    await receiver?.close();
  });
  return {
    /** The running receiver, or a skip with the reason. */
    receiver(context: CheckContext): WebhookReceiver {
      if (receiver === null)
        context.skip('no --webhook-public-url or --webhook-listen: the target cannot reach a receiver');
      return receiver;
    },
    /** Registers a webhook at a fresh route of the receiver. */
    async register(
      context: CheckContext,
      name: string,
      options: { events?: string[]; behaviour?: Behaviour; clock?: Clock } = {},
    ): Promise<RegisteredWebhook> {
      const { route, url } = this.receiver(context).route(name, options.behaviour);
      const clock = options.clock ?? 'target';
      const created = await send('POST', '/webhooks', {
        body: { url, events: options.events ?? allEventTypes, description: `conformance ${name}` },
        server: clock === 'fast' ? 'fast' : 'api',
      });
      expectThat(created.response.status === 201, 'status 201 for POST /webhooks at the receiver', created);
      const body = created.response.body as { id: string; signingSecret: string };
      const webhook = { id: body.id, signingSecret: body.signingSecret, route, url, clock };
      registered.push(webhook);
      return webhook;
    },
    deliveries(context: CheckContext, webhook: RegisteredWebhook): ParsedDelivery[] {
      return this.receiver(context).deliveries(webhook.route).map(parsed);
    },
    /** Waits until deliveries of the webhook satisfy `test`, for at most `timeoutMs`. */
    async waitFor(
      context: CheckContext,
      webhook: RegisteredWebhook,
      test: (deliveries: ParsedDelivery[]) => boolean,
      timeoutMs: number,
    ): Promise<ParsedDelivery[]> {
      const found = await this.receiver(context).waitFor(
        webhook.route,
        (deliveries) => test(deliveries.map(parsed)),
        timeoutMs,
      );
      return found.map(parsed);
    },
  };
}

/** Deliveries of one event type about one object id (data.object.id, or its streamId for subscriber events). */
export function eventsAbout(deliveries: ParsedDelivery[], type: string, id: string): ParsedDelivery[] {
  return deliveries.filter((delivery) => {
    const object = objectOf(delivery);
    return delivery.event?.type === type && (object.id === id || object.streamId === id);
  });
}
