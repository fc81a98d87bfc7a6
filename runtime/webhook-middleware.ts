import type { Validator } from './validation-result.js';
import {
  assertTolerance,
  failVerification,
  type HmacSecret,
  hmacKeys,
  type RawBody,
  type SignatureScheme,
  unixSeconds,
  verifySignature,
} from './webhook-signature.js';

/**
 * What the Fastify, Express and node:http receivers share: reading the headers, parsing the event and binding the
 * spec's settings (passed by generated code) to a receiver's secrets.
 */

/** Node's lower-cased headers, any record, or a Fetch `Headers`. */
export type WebhookHeaders =
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | { get(name: string): string | null };

export interface WebhookEventsDefinition {
  eventNames: readonly string[];
  /** The body property whose value is the event name (`type`); null when the payloads have none. */
  discriminator: string | null;
  /** Schema validators by event name, when the validators artifact is generated. */
  validators: Readonly<Record<string, Validator<unknown>>>;
}

export interface WebhookDeliveryDefinition extends WebhookEventsDefinition {
  scheme: SignatureScheme;
  signatureHeader: string;
  /** The header naming the event; null when the spec names none. */
  eventHeader: string | null;
  toleranceSeconds: number;
}

export interface VerifyOptions {
  /** Defaults to the spec's; must be positive. */
  toleranceSeconds?: number;
  /** The receiver's clock in unix seconds; defaults to now. */
  nowSeconds?: number;
}

export interface WebhookReceiverOptions {
  /** Every secret currently valid: several while a secret rotates. */
  secrets: readonly string[];
  /** Defaults to the spec's; must be positive. */
  toleranceSeconds?: number;
  /** Unix seconds; tests pass a fixed clock. */
  now?: () => number;
}

export type BoundVerifier<Event> = (rawBody: RawBody, headers: WebhookHeaders) => Event;

function single(name: string, value: string | readonly string[] | null | undefined): string | undefined {
  if (value === null || value === undefined || typeof value === 'string') return value ?? undefined;
  if (value.length > 1) failVerification('malformed-header', `${name} is repeated`);
  return value[0];
}

/** Case-insensitive, and fast for Node's lower-cased keys (pass `lowerCase` precomputed on hot paths). */
export function headerValue(
  headers: WebhookHeaders,
  name: string,
  lowerCase = name.toLowerCase(),
): string | undefined {
  if (typeof headers.get === 'function') return single(name, headers.get(name));
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  let value = record[lowerCase] ?? record[name];
  if (value === undefined) {
    const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === lowerCase);
    value = key === undefined ? undefined : record[key];
  }
  return single(name, value);
}

function bodyText(rawBody: RawBody): string {
  if (typeof rawBody === 'string') return rawBody;
  return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength).toString('utf8');
}

function eventNameOf(body: unknown, namedEvent: string | null, events: WebhookEventsDefinition): string {
  const { discriminator } = events;
  let name = namedEvent;
  if (discriminator !== null) {
    const value: unknown =
      typeof body === 'object' && body !== null ? Reflect.get(body, discriminator) : null;
    if (typeof value !== 'string')
      failVerification('unknown-event-type', `the body has no string ${discriminator}`);
    name = value;
  }
  if (name === null) failVerification('unknown-event-type', 'nothing names the event');
  if (!events.eventNames.includes(name)) failVerification('unknown-event-type', `unknown event "${name}"`);
  if (namedEvent !== null && namedEvent !== name) {
    failVerification('event-type-mismatch', `the body is a "${name}" event, not "${namedEvent}"`);
  }
  return name;
}

/**
 * Parses a delivery's body. The result is cast to `Event` once the event name is known and, when a validator
 * exists, the payload matches its schema; without validators the signature is what vouches for the shape.
 */
export function parseWebhookEvent<Event>(
  rawBody: RawBody,
  namedEvent: string | null,
  events: WebhookEventsDefinition,
): Event {
  let body: unknown;
  try {
    body = JSON.parse(bodyText(rawBody));
  } catch {
    failVerification('invalid-json', 'the body is not JSON');
  }
  const validator = events.validators[eventNameOf(body, namedEvent, events)];
  const result = validator?.(body);
  if (result !== undefined && !result.ok) {
    const where = result.error.param === undefined ? '' : ` at ${result.error.param}`;
    failVerification('invalid-payload', `${result.error.message}${where}`);
  }
  return body as Event;
}

export function createWebhookReceiver<Event>(definition: WebhookDeliveryDefinition) {
  assertTolerance(definition.toleranceSeconds);
  const { signatureHeader, eventHeader } = definition;
  const signatureHeaderKey = signatureHeader.toLowerCase();
  const eventHeaderKey = eventHeader?.toLowerCase();
  function verifyWebhookSignature(
    rawBody: RawBody,
    headers: WebhookHeaders,
    secrets: readonly HmacSecret[],
    options: VerifyOptions = {},
  ): number {
    return verifySignature({
      header: headerValue(headers, signatureHeader, signatureHeaderKey),
      rawBody,
      secrets,
      nowSeconds: options.nowSeconds ?? unixSeconds(),
      toleranceSeconds: options.toleranceSeconds ?? definition.toleranceSeconds,
      scheme: definition.scheme,
    });
  }
  function verifyWebhook(
    rawBody: RawBody,
    headers: WebhookHeaders,
    secrets: readonly HmacSecret[],
    options: VerifyOptions = {},
  ): Event {
    verifyWebhookSignature(rawBody, headers, secrets, options);
    const namedEvent = eventHeader === null ? null : headerValue(headers, eventHeader, eventHeaderKey);
    if (namedEvent === undefined) failVerification('missing-event-header', `no ${eventHeader} header`);
    return parseWebhookEvent<Event>(rawBody, namedEvent, definition);
  }
  /** Settings are checked here, when a receiver is set up, not at its first delivery. */
  function bind(options: WebhookReceiverOptions): BoundVerifier<Event> {
    const toleranceSeconds = options.toleranceSeconds ?? definition.toleranceSeconds;
    assertTolerance(toleranceSeconds);
    const secrets = hmacKeys(options.secrets);
    const now = options.now ?? unixSeconds;
    return (rawBody, headers) =>
      verifyWebhook(rawBody, headers, secrets, { toleranceSeconds, nowSeconds: now() });
  }
  return { verifyWebhookSignature, verifyWebhook, bind };
}
