import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Validator } from './validation-result.js';
import {
  createWebhookReceiver,
  headerValue,
  parseWebhookEvent,
  type WebhookDeliveryDefinition,
  type WebhookEventsDefinition,
} from './webhook-middleware.js';
import { readRawBody } from './webhook-middleware-node.js';
import { defineSignatureScheme, signPayload, WebhookVerificationError } from './webhook-signature.js';

// Test definitions of the shape generated code passes; none of these names is the spec's.
const events: WebhookEventsDefinition = {
  eventNames: ['thing.made', 'thing.gone'],
  discriminator: 'kind',
  validators: {},
};
const scheme = defineSignatureScheme({
  timestampKey: 'ts',
  signatureKey: 's1',
  algorithm: 'HMAC-SHA256',
  payloadSeparator: ':',
});
const delivery: WebhookDeliveryDefinition = {
  ...events,
  scheme,
  signatureHeader: 'X-Sig',
  eventHeader: 'X-Event',
  toleranceSeconds: 60,
};

function reasonOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return 'accepted';
}

describe('headerValue', () => {
  it.each<[string, Parameters<typeof headerValue>[0], string | undefined]>([
    ["Node's lower-cased record", { 'x-sig': 'a' }, 'a'],
    ['a record spelt as the spec spells it', { 'X-Sig': 'a' }, 'a'],
    ['a record in another case', { 'X-SIG': 'a' }, 'a'],
    ['a one-element array', { 'x-sig': ['a'] }, 'a'],
    ['a Fetch Headers', new Headers({ 'X-Sig': 'a' }), 'a'],
    ['an absent header', {}, undefined],
  ])('reads %s', (_name, headers, want) => {
    expect(headerValue(headers, 'X-Sig')).toBe(want);
  });

  it('refuses a repeated header', () => {
    expect(reasonOf(() => headerValue({ 'x-sig': ['a', 'b'] }, 'X-Sig'))).toBe('malformed-header');
  });
});

describe('parseWebhookEvent', () => {
  const rejectsNegative: Validator<unknown> = (value) =>
    typeof value === 'object' && value !== null && Reflect.get(value, 'size') < 0
      ? {
          ok: false,
          error: { type: 'invalid', code: 'too_small', message: 'size is negative', param: 'size' },
        }
      : { ok: true, value };
  const validated = { ...events, validators: { 'thing.made': rejectsNegative } };

  it.each<[string, string, string | null, WebhookEventsDefinition, string]>([
    ['a known event', '{"kind":"thing.made"}', null, events, 'accepted'],
    ['a known event named beside it', '{"kind":"thing.made"}', 'thing.made', events, 'accepted'],
    ['a body that is not JSON', '{"kind":', null, events, 'invalid-json'],
    ['a body without the discriminator', '{"type":"thing.made"}', null, events, 'unknown-event-type'],
    ['a body that is not an object', '"thing.made"', null, events, 'unknown-event-type'],
    ['an unknown event', '{"kind":"thing.lost"}', null, events, 'unknown-event-type'],
    ['another event than named', '{"kind":"thing.made"}', 'thing.gone', events, 'event-type-mismatch'],
    [
      'a payload its validator refuses',
      '{"kind":"thing.made","size":-1}',
      null,
      validated,
      'invalid-payload',
    ],
    ['a payload its validator accepts', '{"kind":"thing.made","size":1}', null, validated, 'accepted'],
    ['no discriminator and no name', '{}', null, { ...events, discriminator: null }, 'unknown-event-type'],
    ['no discriminator, a name', '{}', 'thing.gone', { ...events, discriminator: null }, 'accepted'],
  ])('%s', (_name, body, named, definition, want) => {
    expect(reasonOf(() => parseWebhookEvent(body, named, definition))).toBe(want);
  });

  it('reads a byte view at its offset', () => {
    const bytes = Buffer.from('xx{"kind":"thing.gone"}').subarray(2);
    expect(
      parseWebhookEvent(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), null, events),
    ).toEqual({
      kind: 'thing.gone',
    });
  });

  it('names the failing field of an invalid payload', () => {
    expect(() => parseWebhookEvent('{"kind":"thing.made","size":-1}', null, validated)).toThrow(
      'invalid-payload: size is negative at size',
    );
  });
});

describe('createWebhookReceiver', () => {
  const receiver = createWebhookReceiver<{ kind: string }>(delivery);
  const body = '{"kind":"thing.made"}';
  const signed = (overrides: Record<string, string> = {}) => ({
    'x-sig': signPayload({ secret: 'k', timestamp: 1000, rawBody: body, scheme }),
    'x-event': 'thing.made',
    ...overrides,
  });

  it('verifies with the scheme it was given', () => {
    expect(signed()['x-sig']).toMatch(/^ts=1000,s1=[0-9a-f]{64}$/);
    expect(receiver.verifyWebhook(body, signed(), ['k'], { nowSeconds: 1000 })).toEqual({
      kind: 'thing.made',
    });
  });

  it('applies its tolerance unless told otherwise', () => {
    expect(reasonOf(() => receiver.verifyWebhook(body, signed(), ['k'], { nowSeconds: 1061 }))).toBe(
      'timestamp-outside-tolerance',
    );
    expect(
      reasonOf(() =>
        receiver.verifyWebhook(body, signed(), ['k'], { nowSeconds: 1061, toleranceSeconds: 61 }),
      ),
    ).toBe('accepted');
  });

  it('needs the event header when the spec names one', () => {
    const { 'x-event': _, ...withoutEvent } = signed();
    expect(reasonOf(() => receiver.verifyWebhook(body, withoutEvent, ['k'], { nowSeconds: 1000 }))).toBe(
      'missing-event-header',
    );
  });

  it('binds secrets and a clock, checking them at once', () => {
    const verify = receiver.bind({ secrets: ['old', 'k'], now: () => 1000 });
    expect(verify(Buffer.from(body), signed())).toEqual({ kind: 'thing.made' });
    expect(() => receiver.bind({ secrets: [] })).toThrow(RangeError);
    expect(() => receiver.bind({ secrets: ['k'], toleranceSeconds: -5 })).toThrow(RangeError);
  });
});

describe('readRawBody', () => {
  const request = (chunks: string[], headers: Record<string, string> = {}) =>
    Object.assign(Readable.from(chunks.map((chunk) => Buffer.from(chunk))), { headers });

  it('joins the chunks as they came', async () => {
    expect((await readRawBody(request(['{"a":', '1}']), 100)).toString()).toBe('{"a":1}');
  });

  it('refuses a declared length over the limit without reading', async () => {
    await expect(readRawBody(request(['x'], { 'content-length': '101' }), 100)).rejects.toMatchObject({
      reason: 'body-too-large',
      statusCode: 413,
    });
  });

  it('refuses a streamed body over the limit', async () => {
    await expect(readRawBody(request(['x'.repeat(60), 'x'.repeat(60)]), 100)).rejects.toMatchObject({
      reason: 'body-too-large',
    });
  });
});
