import { apiPolicies } from '../../../generated/types/facts.js';
import {
  verifyWebhookSignature,
  WebhookVerificationError,
  webhookSignatureHeader,
} from '../../../generated/webhooks/index.js';
import type { ReceivedDelivery } from '../../harness/webhook-receiver.js';

const { signature } = apiPolicies.webhookDelivery;
/** The hex length of the digest of the algorithm the spec names (HMAC-SHA256: 32 bytes). */
const digestHexLength = 64;

export interface SignatureReading {
  header: string | undefined;
  parts: Array<[string, string]>;
  timestamps: string[];
  v1: string[];
  /** Parts that are neither t nor v1. */
  others: Array<[string, string]>;
  /** Null when the generated verifier accepted the delivery; else its reason. */
  verifierError: string | null;
}

/** Splits the header on `,` into key=value parts, and runs the generated verifier at `nowSeconds`. */
export function readSignature(
  delivery: ReceivedDelivery,
  secret: string,
  nowSeconds: number,
  toleranceSeconds: number = signature.toleranceSeconds,
): SignatureReading {
  const header = delivery.headers[webhookSignatureHeader.toLowerCase()];
  const parts = (header ?? '').split(',').map((part) => {
    const at = part.indexOf('=');
    return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as [string, string];
  });
  let verifierError: string | null = null;
  try {
    verifyWebhookSignature(delivery.rawBody, delivery.headers, [secret], { nowSeconds, toleranceSeconds });
  } catch (error) {
    verifierError = error instanceof WebhookVerificationError ? error.message : String(error);
  }
  return {
    header,
    parts,
    timestamps: parts.filter(([key]) => key === 't').map(([, value]) => value),
    v1: parts.filter(([key]) => key === 'v1').map(([, value]) => value),
    others: parts.filter(([key]) => key !== 't' && key !== 'v1'),
    verifierError,
  };
}

export const isLowerHexDigest = (value: string) => new RegExp(`^[0-9a-f]{${digestHexLength}}$`).test(value);
export const isUnixSeconds = (value: string) => /^[0-9]{1,12}$/.test(value);
/** A part a receiver may ignore: a scheme name and a value without separators. */
export const isWellFormedPart = ([key, value]: [string, string]) =>
  /^[A-Za-z][A-Za-z0-9_-]*$/.test(key) && value.length > 0 && !/[\s,]/.test(value);
