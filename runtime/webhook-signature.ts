import { createHmac, createSecretKey, getHashes, type KeyObject, timingSafeEqual } from 'node:crypto';

/**
 * Signing and verification of `<timestampKey>=<unix seconds>,<signatureKey>=<hex>` headers: an HMAC over
 * `<t><payloadSeparator><raw body>`, keyed with the UTF-8 bytes of the secret. Every name and number is a parameter;
 * generated code passes the spec's (`x-webhook-delivery.signature`).
 */
export interface SignatureSchemeDefinition {
  /** Key of the timestamp element (`t`). */
  timestampKey: string;
  /** Key of the signature elements this scheme writes and reads (`v1`); other keys are ignored. */
  signatureKey: string;
  /** `HMAC-<hash>`, such as `HMAC-SHA256`. */
  algorithm: string;
  /** What joins the timestamp and the raw body in the signed payload (`.`). */
  payloadSeparator: string;
}

export interface SignatureScheme extends Readonly<SignatureSchemeDefinition> {
  /** node:crypto's name of the hash (`sha256`). */
  readonly hash: string;
  /** Lowercase hex of exactly the digest's length. */
  readonly signaturePattern: RegExp;
  /** Bytes of the digest. */
  readonly digestLength: number;
}

export type RawBody = string | Uint8Array;

/** A secret as written (its UTF-8 bytes are the key), or the key made once from it by `hmacKeys`. */
export type HmacSecret = string | KeyObject;

/** Every way a delivery can fail verification; the reason is for the receiver's logs and tests. */
export const webhookVerificationReasons = {
  'missing-signature-header': 'the signature header is absent',
  'malformed-header': 'a header breaks its grammar: an element is not key=value, or the header is repeated',
  'missing-timestamp': 'the signature header has no timestamp element',
  'duplicate-timestamp': 'the signature header has more than one timestamp element',
  'malformed-timestamp': 'the timestamp is not whole unix seconds',
  'no-signature-for-scheme': 'the signature header has no element of this scheme (others are ignored)',
  'malformed-signature': "a signature of this scheme is not lowercase hex of the digest's length",
  'signature-mismatch': 'no signature matches any of the secrets',
  'timestamp-outside-tolerance':
    'authentic, but signed too long ago or too far ahead (a replay or a skewed clock)',
  'body-too-large': 'the body exceeds the configured limit',
  'missing-event-header': 'the event header is absent',
  'invalid-json': 'the body is not JSON',
  'unknown-event-type': 'the event is not one this code was generated for',
  'event-type-mismatch': "the body's type is not the event named beside it (event header or caller)",
  'invalid-payload': "the payload does not match its event's schema",
} as const;

export type WebhookVerificationReason = keyof typeof webhookVerificationReasons;

/** The one error a delivery that fails verification raises. */
export class WebhookVerificationError extends Error {
  /** Fastify and Express answer with it; any non-2xx makes the sender retry. */
  readonly statusCode: number;

  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(`${reason}: ${message}`);
    this.name = 'WebhookVerificationError';
    this.statusCode = reason === 'body-too-large' ? 413 : 400;
  }
}

/** Checks the scheme once, at module load, so that verification never meets an unknown hash. */
export function defineSignatureScheme(definition: SignatureSchemeDefinition): SignatureScheme {
  const hash = /^HMAC-(.+)$/i.exec(definition.algorithm)?.[1]?.toLowerCase();
  if (hash === undefined || !getHashes().includes(hash)) {
    throw new RangeError(`unsupported signature algorithm "${definition.algorithm}" (expected HMAC-<hash>)`);
  }
  if (definition.timestampKey === definition.signatureKey) {
    throw new RangeError('the timestamp and signature keys must differ');
  }
  const digestLength = createHmac(hash, 'length probe').digest().length;
  const signaturePattern = new RegExp(`^[0-9a-f]{${digestLength * 2}}$`);
  return Object.freeze({ ...definition, hash, signaturePattern, digestLength });
}

export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Keys of the secret strings seen lately: Node encodes a string key on every `createHmac`, a KeyObject once. */
const keysOfSecrets = new Map<string, KeyObject>();
/** Receivers hold a handful of secrets; past this many (a caller with a secret per tenant), start over. */
const keysOfSecretsLimit = 64;

function hmacKey(secret: HmacSecret): KeyObject {
  if (typeof secret !== 'string') return secret;
  let key = keysOfSecrets.get(secret);
  if (key === undefined) {
    if (keysOfSecrets.size >= keysOfSecretsLimit) keysOfSecrets.clear();
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keysOfSecrets.set(secret, key);
  }
  return key;
}

function hmacOf(scheme: SignatureScheme, secret: HmacSecret, timestamp: string, rawBody: RawBody) {
  return createHmac(scheme.hash, hmacKey(secret))
    .update(timestamp + scheme.payloadSeparator)
    .update(rawBody);
}

function digest(scheme: SignatureScheme, secret: HmacSecret, timestamp: string, rawBody: RawBody): Buffer {
  return hmacOf(scheme, secret, timestamp, rawBody).digest();
}

/** A header value with one signature per secret (several while a secret rotates). */
export function signPayload(input: {
  secret: string | readonly string[];
  timestamp: number;
  rawBody: RawBody;
  scheme: SignatureScheme;
}): string {
  const { scheme, rawBody } = input;
  if (!Number.isSafeInteger(input.timestamp) || input.timestamp < 0) {
    throw new RangeError(`the timestamp must be whole unix seconds, not ${input.timestamp}`);
  }
  const secrets = typeof input.secret === 'string' ? [input.secret] : input.secret;
  assertSecrets(secrets);
  const timestamp = String(input.timestamp);
  const elements = [`${scheme.timestampKey}=${timestamp}`];
  for (const secret of secrets) {
    // Hex straight from the hash: a Buffer and its conversion cost a third of a signature.
    elements.push(`${scheme.signatureKey}=${hmacOf(scheme, secret, timestamp, rawBody).digest('hex')}`);
  }
  return elements.join(',');
}

function assertSecrets(secrets: readonly HmacSecret[]): void {
  let empty = secrets.length === 0;
  for (const secret of secrets) {
    empty ||= typeof secret === 'string' ? secret.length === 0 : secret.symmetricKeySize === 0;
  }
  if (empty) throw new RangeError('at least one secret is needed, and no secret may be empty');
}

/** Keys made once from the secrets' UTF-8 bytes, so that a long-lived receiver does not encode them per delivery. */
export function hmacKeys(secrets: readonly string[]): KeyObject[] {
  assertSecrets(secrets);
  return secrets.map((secret) => createSecretKey(Buffer.from(secret, 'utf8')));
}

/** A tolerance of 0 (or less, or infinite) must never mean "no check": it is refused as a configuration error. */
export function assertTolerance(toleranceSeconds: number): void {
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds <= 0) {
    throw new RangeError(
      `the timestamp tolerance must be a positive number of seconds, not ${toleranceSeconds}`,
    );
  }
}

/** Configuration errors throw here, before any delivery is looked at. */
export function assertVerificationSettings(secrets: readonly HmacSecret[], toleranceSeconds: number): void {
  assertSecrets(secrets);
  assertTolerance(toleranceSeconds);
}

interface ParsedHeader {
  timestamp: string | null;
  signatures: Buffer[];
}

export function failVerification(reason: WebhookVerificationReason, message: string): never {
  throw new WebhookVerificationError(reason, message);
}

// Character loops, not regular expressions: they run on every delivery and cost less than the pattern match.
function isLowercaseHex(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 102))) return false;
  }
  return true;
}

/** Whole unix seconds as written: 1 to 15 decimal digits. */
function isUnixSeconds(text: string): boolean {
  if (text.length === 0 || text.length > 15) return false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** One pass over the header without splitting it; signatures are decoded from hex once, here. */
function parseHeader(header: string, scheme: SignatureScheme): ParsedHeader {
  const parsed: ParsedHeader = { timestamp: null, signatures: [] };
  for (let start = 0; start <= header.length; ) {
    const comma = header.indexOf(',', start);
    const end = comma === -1 ? header.length : comma;
    const equals = header.indexOf('=', start);
    if (equals <= start || equals >= end - 1)
      failVerification('malformed-header', 'every element must be key=value');
    const key = header.slice(start, equals);
    if (key === scheme.timestampKey) {
      if (parsed.timestamp !== null) failVerification('duplicate-timestamp', `more than one ${key} element`);
      parsed.timestamp = header.slice(equals + 1, end);
    } else if (key === scheme.signatureKey) {
      const hex = header.slice(equals + 1, end);
      if (hex.length !== scheme.digestLength * 2 || !isLowercaseHex(hex)) {
        failVerification('malformed-signature', `${key} must be lowercase hex of the digest's length`);
      }
      parsed.signatures.push(Buffer.from(hex, 'hex'));
    }
    start = end + 1;
  }
  return parsed;
}

function matchesAny(expected: Buffer, signatures: readonly Buffer[]): boolean {
  for (const signature of signatures) if (timingSafeEqual(expected, signature)) return true;
  return false;
}

export interface VerifySignatureInput {
  header: string | null | undefined;
  rawBody: RawBody;
  /** Every secret currently valid; one match is enough. */
  secrets: readonly HmacSecret[];
  nowSeconds: number;
  toleranceSeconds: number;
  scheme: SignatureScheme;
}

/**
 * Returns the signed timestamp. The signature is checked before the timestamp, so a timestamp error means the
 * delivery is authentic but stale or early (a replay, or a skewed clock).
 */
export function verifySignature(input: VerifySignatureInput): number {
  const { header, scheme, secrets } = input;
  assertVerificationSettings(secrets, input.toleranceSeconds);
  if (header === null || header === undefined)
    failVerification('missing-signature-header', 'no signature header');
  const { timestamp, signatures } = parseHeader(header, scheme);
  if (timestamp === null) failVerification('missing-timestamp', `no ${scheme.timestampKey} element`);
  if (!isUnixSeconds(timestamp))
    failVerification('malformed-timestamp', `${scheme.timestampKey} is not unix seconds`);
  if (signatures.length === 0)
    failVerification('no-signature-for-scheme', `no ${scheme.signatureKey} element`);
  let matched = false;
  for (let index = 0; index < secrets.length && !matched; index += 1) {
    matched = matchesAny(digest(scheme, secrets[index] ?? '', timestamp, input.rawBody), signatures);
  }
  if (!matched) failVerification('signature-mismatch', 'no signature matches any secret');
  const seconds = Number(timestamp);
  const age = input.nowSeconds - seconds;
  if (age > input.toleranceSeconds || -age > input.toleranceSeconds) {
    const offset = age > 0 ? `${age} s old` : `${-age} s ahead`;
    failVerification(
      'timestamp-outside-tolerance',
      `timestamp is ${offset}; tolerance ${input.toleranceSeconds} s`,
    );
  }
  return seconds;
}
