import type { Requirement } from './requirement.js';

/** The surface a spec location belongs to. */
export function surfaceOf(pointers: readonly string[]): Requirement['surface'] {
  const text = pointers.join(' ');
  if (/deviceTelemetry|x-ingest-rules|mqtt/i.test(text)) return 'mqtt';
  if (/liveFeed|live-frame|websocket|x-connection-rules/i.test(text)) return 'websocket';
  if (/webhookDelivery|x-webhook-delivery|#\/webhooks|event-|webhook-delivery/.test(text)) return 'webhooks';
  if (/oauth|token-re|OAuth2|consent/i.test(text)) return 'oauth';
  return 'rest';
}
