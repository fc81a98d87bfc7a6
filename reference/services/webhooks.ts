import { apiPolicies, parameterDefaults, schemaPatterns } from '../../generated/types/facts.js';
import type {
  CreateWebhookRequestBody,
  ListWebhookDeliveriesParameters,
  ListWebhooksParameters,
} from '../../generated/types/operations.js';
import type {
  CreatedWebhook,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
  WebhookTestEvent,
} from '../../generated/types/schemas.js';
import { isoTime } from '../clock.js';
import { problem } from '../problems.js';
import { randomMatching } from '../random-token.js';
import type { DeliveryRow, WebhookRow } from '../storage/rows.js';
import type { ServiceContext } from './context.js';
import { eventObject, recordEvent } from './events.js';
import { found } from './found.js';
import { newId } from './ids.js';
import { listEnvelope, pageRequest } from './pagination.js';

/** Every representation but the creation response: the signing secret never leaves again. */
export function webhookObject(row: WebhookRow): Webhook {
  return {
    id: row.id,
    object: 'webhook',
    url: row.url,
    events: row.events as Webhook['events'],
    status: row.status as Webhook['status'],
    description: row.description,
    createdAt: row.createdAt,
  };
}

/** The webhook with its signing secret, shown on creation and roll (the secret added to the literal, not spread into a
 * copy: see createdStreamObject in streams.ts). */
function createdWebhookObject(row: WebhookRow, signingSecret: string): CreatedWebhook {
  const created: Webhook & { signingSecret?: string } = webhookObject(row);
  created.signingSecret = signingSecret;
  return created as CreatedWebhook;
}

export function deliveryObject(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    object: 'webhook_delivery',
    webhookId: row.webhookId,
    eventId: row.eventId,
    eventType: row.eventType as WebhookDelivery['eventType'],
    status: row.status as WebhookDelivery['status'],
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt,
    createdAt: row.createdAt,
  };
}

async function requireWebhook(context: ServiceContext, webhookId: string): Promise<WebhookRow> {
  return found(
    await context.store.webhooks.get(context.accountId, webhookId),
    // Stryker disable next-line StringLiteral: equivalent, the kind only words the free-text message, which stays non-empty without it
    'webhook',
    webhookId,
    'webhookId',
  );
}

export async function createWebhook(
  context: ServiceContext,
  body: CreateWebhookRequestBody,
): Promise<CreatedWebhook> {
  return context.store.transaction(async (store) => {
    if ((await store.webhooks.count(context.accountId)) >= apiPolicies.limits.maxWebhooksPerAccount) {
      throw problem(
        'webhook_limit_reached',
        `An account has at most ${apiPolicies.limits.maxWebhooksPerAccount} webhooks.`,
      );
    }
    const signingSecret = randomMatching(schemaPatterns['CreatedWebhook.signingSecret'], 32);
    const row = await store.webhooks.insert({
      id: newId('WebhookId'),
      accountId: context.accountId,
      url: body.url,
      events: [...body.events],
      description: body.description ?? null,
      signingSecret,
      status: 'active',
      createdAt: isoTime(context.clock),
    });
    return createdWebhookObject(row, signingSecret);
  });
}

export async function getWebhook(context: ServiceContext, webhookId: string): Promise<Webhook> {
  return webhookObject(await requireWebhook(context, webhookId));
}

export async function listWebhooks(
  context: ServiceContext,
  query: NonNullable<ListWebhooksParameters['query']>,
): Promise<WebhookList> {
  // Stryker disable next-line StringLiteral: equivalent, the generated query validation already fills in the spec's default limit
  const request = pageRequest(query, parameterDefaults['listWebhooks.limit']);
  return listEnvelope(
    await context.store.webhooks.list(context.accountId, request),
    request,
    webhookObject,
    (row) => row.id,
  );
}

export async function deleteWebhook(context: ServiceContext, webhookId: string) {
  await requireWebhook(context, webhookId);
  await context.store.webhooks.delete(context.accountId, webhookId);
  return { id: webhookId, object: 'webhook' as const, deleted: true as const };
}

/**
 * A new signing secret, returned once. The previous one keeps signing beside it (two `v1` values) for the spec's
 * overlap, so a receiver can switch secrets without refusing a delivery.
 */
export async function rollWebhookSecret(context: ServiceContext, webhookId: string): Promise<CreatedWebhook> {
  return context.store.transaction(async (store) => {
    const current = await found(
      await store.webhooks.get(context.accountId, webhookId),
      // Stryker disable next-line StringLiteral: equivalent, the kind word only words the 404's message
      'webhook',
      webhookId,
      'webhookId',
    );
    const signingSecret = randomMatching(schemaPatterns['CreatedWebhook.signingSecret'], 32);
    const overlapMs = apiPolicies.webhookDelivery.secretRotation.overlapSeconds * 1000;
    await store.webhooks.update(context.accountId, webhookId, {
      signingSecret,
      previousSigningSecret: current.signingSecret,
      previousSecretExpiresAt: new Date(context.clock.now() + overlapMs).toISOString(),
    });
    // The roll changes no field the webhook object shows; the new secret is added to it.
    return createdWebhookObject(current, signingSecret);
  });
}

/** Sends a delivery again: pending, due now, with the whole retry schedule ahead of it (its attempts stay). */
export async function retryDelivery(
  context: ServiceContext,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  await requireWebhook(context, webhookId);
  const row = await context.store.deliveries.requeue(
    context.accountId,
    webhookId,
    deliveryId,
    isoTime(context.clock),
  );
  // Stryker disable next-line StringLiteral: equivalent, the kind word only words the 404's message (hides the killed mutant of its param with it)
  return deliveryObject(found(row, 'delivery', deliveryId, 'deliveryId'));
}

/** Records a webhook.test event for this one webhook; the dispatcher delivers it like any other. */
export async function sendTestEvent(context: ServiceContext, webhookId: string): Promise<WebhookTestEvent> {
  const webhook = await requireWebhook(context, webhookId);
  const event = await recordEvent(
    context.store,
    context.clock,
    context.accountId,
    'webhook.test',
    { object: webhookObject(webhook) },
    {
      livemode: false,
      onlyWebhookId: webhook.id,
    },
  );
  return eventObject(event) as WebhookTestEvent;
}

export async function listDeliveries(
  context: ServiceContext,
  webhookId: string,
  query: NonNullable<ListWebhookDeliveriesParameters['query']>,
): Promise<WebhookDeliveryList> {
  await requireWebhook(context, webhookId);
  // Stryker disable next-line StringLiteral: equivalent, the generated query validation already fills in the spec's default limit
  const request = pageRequest(query, parameterDefaults['listWebhookDeliveries.limit']);
  const page = await context.store.deliveries.list(context.accountId, request, { webhookId });
  return listEnvelope(page, request, deliveryObject, (row) => row.id);
}
