import { describe, expect, it } from 'vitest';
import {
  defineSignatureScheme,
  signPayload,
  type VerifySignatureInput,
  verifySignature,
  WebhookVerificationError,
  webhookVerificationReasons,
} from './webhook-signature.js';

// A test scheme of the same shape as the spec's; the generated code's own constants are tested in tests/.
const scheme = defineSignatureScheme({
  timestampKey: 't',
  signatureKey: 'v1',
  algorithm: 'HMAC-SHA256',
  payloadSeparator: '.',
});

/**
 * Known-answer vector. The expected digests were computed outside this code, with
 *   printf '%s' '<timestamp>.<body>' | openssl dgst -sha256 -hmac '<secret>'
 */
const vector = {
  secret: 'whsec_5WbX2kQm9Rt7Yp3Lr8Nd4Fg6',
  rotatedSecret: 'whsec_rotated_Hk2Jd8Pq4Ws6',
  timestamp: 1795253472,
  body: '{"id":"evt_7Yp2Qm5Wx8Kd3Lr9","object":"event","type":"device.online"}',
  signature: '288f7bdf043d3a3114dee7dc5eebcd40bf34a72ebbd8f325f632a6fb1b41c78c',
  rotatedSignature: '5b4b124e3efa5bfcb8ca0ef412f9d2a3cbf0d53617a0809a6302df7c1626f877',
};
const validHeader = `t=${vector.timestamp},v1=${vector.signature}`;

function verify(overrides: Partial<VerifySignatureInput>): number {
  return verifySignature({
    header: validHeader,
    rawBody: vector.body,
    secrets: [vector.secret],
    nowSeconds: vector.timestamp,
    toleranceSeconds: 300,
    scheme,
    ...overrides,
  });
}

function reasonOf(overrides: Partial<VerifySignatureInput>): string {
  try {
    verify(overrides);
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return 'verified';
}

describe('webhook signature: known answer', () => {
  it('signs the vector as openssl does', () => {
    const { secret, timestamp, body } = vector;
    expect(signPayload({ secret, timestamp, rawBody: body, scheme })).toBe(validHeader);
    expect(signPayload({ secret, timestamp, rawBody: Buffer.from(body), scheme })).toBe(validHeader);
  });

  it('writes one signature per secret while a secret rotates', () => {
    const secret = [vector.secret, vector.rotatedSecret];
    expect(signPayload({ secret, timestamp: vector.timestamp, rawBody: vector.body, scheme })).toBe(
      `${validHeader},v1=${vector.rotatedSignature}`,
    );
  });

  it('verifies the vector and returns its timestamp', () => {
    expect(verify({})).toBe(vector.timestamp);
    expect(verify({ rawBody: new TextEncoder().encode(vector.body) })).toBe(vector.timestamp);
  });
});

describe('webhook signature: what is accepted', () => {
  const otherSignature = vector.rotatedSignature;
  it.each<[string, Partial<VerifySignatureInput>]>([
    ['exactly 300 s old', { nowSeconds: vector.timestamp + 300 }],
    ['exactly 300 s ahead', { nowSeconds: vector.timestamp - 300 }],
    [
      'several v1, one valid',
      { header: `t=${vector.timestamp},v1=${otherSignature},v1=${vector.signature}` },
    ],
    [
      'an unknown scheme beside a valid v1',
      { header: `t=${vector.timestamp},v0=deadbeef,v1=${vector.signature}` },
    ],
    ['elements in another order', { header: `v1=${vector.signature},t=${vector.timestamp}` }],
    ['the old secret among the current ones', { secrets: [vector.rotatedSecret, vector.secret] }],
  ])('%s', (_name, overrides) => {
    expect(reasonOf(overrides)).toBe('verified');
  });
});

/** The same hex with one character replaced by another hex digit. */
function withHexChanged(hex: string, at: number): string {
  const replacement = hex[at] === '0' ? '1' : '0';
  return `${hex.slice(0, at)}${replacement}${hex.slice(at + 1)}`;
}

describe('webhook signature: what is refused', () => {
  const { timestamp, signature } = vector;
  const upperCase = signature.toUpperCase();
  it.each<[string, Partial<VerifySignatureInput>, string]>([
    ['wrong secret', { secrets: ['whsec_wrong'] }, 'signature-mismatch'],
    ['body changed by one byte', { rawBody: vector.body.replace('online', 'onlinf') }, 'signature-mismatch'],
    ['timestamp changed', { header: `t=${timestamp + 1},v1=${signature}` }, 'signature-mismatch'],
    ['301 s old', { nowSeconds: timestamp + 301 }, 'timestamp-outside-tolerance'],
    ['301 s ahead', { nowSeconds: timestamp - 301 }, 'timestamp-outside-tolerance'],
    ['no header', { header: undefined }, 'missing-signature-header'],
    ['empty header', { header: '' }, 'malformed-header'],
    ['no key=value', { header: 'garbage' }, 'malformed-header'],
    ['empty value', { header: `t=,v1=${signature}` }, 'malformed-header'],
    ['trailing comma', { header: `${validHeader},` }, 'malformed-header'],
    ['space after comma', { header: `t=${timestamp}, v1=${signature}` }, 'no-signature-for-scheme'],
    ['duplicated t', { header: `t=${timestamp},t=${timestamp},v1=${signature}` }, 'duplicate-timestamp'],
    ['no t', { header: `v1=${signature}` }, 'missing-timestamp'],
    ['t not unix seconds', { header: `t=-${timestamp},v1=${signature}` }, 'malformed-timestamp'],
    ['t fractional', { header: `t=${timestamp}.5,v1=${signature}` }, 'malformed-timestamp'],
    ['t of 16 digits', { header: `t=1${'0'.repeat(15)},v1=${signature}` }, 'malformed-timestamp'],
    ['long v1', { header: `t=${timestamp},v1=${signature}00` }, 'malformed-signature'],
    ['upper-case v1', { header: `t=${timestamp},v1=${upperCase}` }, 'malformed-signature'],
    ['non-hex v1', { header: `t=${timestamp},v1=${signature.slice(0, -1)}g` }, 'malformed-signature'],
    ['short v1', { header: `t=${timestamp},v1=${signature.slice(0, -2)}` }, 'malformed-signature'],
    ['only an unknown scheme', { header: `t=${timestamp},v0=${signature}` }, 'no-signature-for-scheme'],
    // Signatures are compared as hex text: a change in any one character must be seen, wherever it is.
    ...[0, 31, 63].map((at): [string, Partial<VerifySignatureInput>, string] => [
      `v1 with character ${at} changed`,
      { header: `t=${timestamp},v1=${withHexChanged(signature, at)}` },
      'signature-mismatch',
    ]),
  ])('%s', (_name, overrides, reason) => {
    expect(reasonOf(overrides)).toBe(reason);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses a tolerance of %s', (toleranceSeconds) => {
    expect(() => verify({ toleranceSeconds })).toThrow(RangeError);
  });

  it('keeps verifying after more secrets than its key cache holds, and never with a key of another secret', () => {
    const others = Array.from({ length: 100 }, (_, index) => `whsec_other_${index}`);
    for (const other of others) expect(reasonOf({ secrets: [other] })).toBe('signature-mismatch');
    expect(reasonOf({})).toBe('verified');
    expect(reasonOf({ secrets: [`${vector.secret}x`] })).toBe('signature-mismatch');
  });

  it('refuses no secret and an empty secret', () => {
    expect(() => verify({ secrets: [] })).toThrow(RangeError);
    expect(() => verify({ secrets: [''] })).toThrow(RangeError);
    expect(() => signPayload({ secret: [], timestamp: 1, rawBody: '', scheme })).toThrow(RangeError);
  });

  it('refuses a timestamp that is not whole seconds when signing', () => {
    expect(() => signPayload({ secret: vector.secret, timestamp: 1.5, rawBody: '', scheme })).toThrow(
      RangeError,
    );
  });
});

describe('webhook signature: scheme and errors', () => {
  it.each(['SHA256', 'HMAC-NOPE'])('refuses the algorithm %s', (algorithm) => {
    expect(() => defineSignatureScheme({ ...scheme, algorithm })).toThrow(/unsupported signature algorithm/);
  });

  it('sizes the signature to the hash', () => {
    const sha512 = defineSignatureScheme({ ...scheme, algorithm: 'HMAC-SHA512' });
    const header = signPayload({ secret: 'k', timestamp: 5, rawBody: 'x', scheme: sha512 });
    expect(header).toMatch(/^t=5,v1=[0-9a-f]{128}$/);
    expect(verify({ header, rawBody: 'x', secrets: ['k'], nowSeconds: 5, scheme: sha512 })).toBe(5);
  });

  it('has one reason for each way a delivery fails, each with a status', () => {
    expect(Object.keys(webhookVerificationReasons)).toHaveLength(15);
    const error = new WebhookVerificationError('signature-mismatch', 'no match');
    expect([error.reason, error.statusCode, error.message]).toEqual([
      'signature-mismatch',
      400,
      'signature-mismatch: no match',
    ]);
    expect(new WebhookVerificationError('body-too-large', 'big').statusCode).toBe(413);
  });
});
