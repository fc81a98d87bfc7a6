import { apiPolicies } from '../../generated/types/facts.js';
import { signWebhook, webhookEventHeader, webhookSignatureHeader } from '../../generated/webhooks/index.js';
import { eventObject } from '../services/events.js';
import type { ClaimedDelivery } from '../storage/rows.js';
import type { SignedRequest } from './sender.js';

const deliveryIdHeader = apiPolicies.webhookDelivery.idempotency.header;

/** The secrets a delivery is signed with at `nowMs`: the current one first, the rolled one until it expires. */
export function signingSecrets(webhook: ClaimedDelivery['webhook'], nowMs: number): string[] {
  const previous = webhook.previousSigningSecret;
  const expires = webhook.previousSecretExpiresAt;
  const overlapping = previous != null && expires != null && Date.parse(expires) > nowMs;
  return overlapping ? [webhook.signingSecret, previous] : [webhook.signingSecret];
}

/** The Event as JSON, signed over exactly these bytes with the service clock's unix seconds. */
export function signedRequest(claimed: ClaimedDelivery, nowMs: number): SignedRequest {
  // The bytes are made once: signed, then written to the socket as they are (a string would be encoded twice).
  const body = Buffer.from(JSON.stringify(eventObject(claimed.event)));
  return {
    url: claimed.webhook.url,
    body,
    headers: {
      'content-type': 'application/json',
      [webhookSignatureHeader]: signWebhook(
        body,
        signingSecrets(claimed.webhook, nowMs),
        Math.floor(nowMs / 1000),
      ),
      [webhookEventHeader]: claimed.event.type,
      [deliveryIdHeader]: claimed.delivery.id,
    },
  };
}
