// npx tsx bench/webhook-signature.ts — the generated webhook verifier against a bare node:crypto HMAC + compare.
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { validateDeviceOnlineEvent } from '../generated/validators/standalone.js';
import {
  signWebhook,
  verifyWebhook,
  verifyWebhookSignature,
  webhookEventHeader,
  webhookSignatureHeader,
  webhookSignatureScheme,
} from '../generated/webhooks/index.js';
import { type BenchReport, compareThroughput, formatThroughput, pairedRatio } from './harness.js';

const bodyBytes = 300;
/** Issue 16: the signature check alone against bare HMAC + compare; the whole verification against bare HMAC +
 * JSON.parse + the standalone validator of the event. */
const signatureTarget = 0.9;
const fullTarget = 0.7;

/** A valid device.online delivery whose title is padded so that the body is exactly 300 bytes. */
function deliveryBody(): Buffer {
  const event = {
    id: 'evt_7Yp2Qm5Wx8Kd3Lr9',
    object: 'event',
    type: 'device.online',
    created: 1795253472,
    livemode: true,
    data: {
      object: {
        id: 'stm_8fJ2kQ9xLmN3pR7t',
        title: '',
        status: 'live',
        subscriberCount: 0,
        startedAt: '2026-11-21T09:31:12.250Z',
      },
    },
  };
  const padding = bodyBytes - Buffer.byteLength(JSON.stringify(event));
  event.data.object.title = 'x'.repeat(padding);
  const body = Buffer.from(JSON.stringify(event));
  if (body.length !== bodyBytes) throw new Error(`the body is ${body.length} bytes, not ${bodyBytes}`);
  return body;
}

export async function run(): Promise<BenchReport> {
  const secret = 'whsec_bench_3Kd8Lq2Xv9Bn4Rt6';
  const secrets = [secret];
  const rawBody = deliveryBody();
  const timestamp = Math.floor(Date.now() / 1000);
  const header = signWebhook(rawBody, secret, timestamp);
  const headers = {
    [webhookSignatureHeader.toLowerCase()]: header,
    [webhookEventHeader.toLowerCase()]: 'device.online',
  };
  // The bare baseline: the same HMAC over the same bytes, one decode of the received hex, one constant-time compare.
  const { hash, payloadSeparator } = webhookSignatureScheme;
  const signatureHex = createHmac(hash, secret)
    .update(`${timestamp}${payloadSeparator}`)
    .update(rawBody)
    .digest('hex');
  const bare = () => {
    const expected = createHmac(hash, secret)
      .update(`${timestamp}${payloadSeparator}`)
      .update(rawBody)
      .digest();
    return timingSafeEqual(expected, Buffer.from(signatureHex, 'hex'));
  };
  // The same key made once (what a long-lived receiver can do): shown for reference, not a target's baseline.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const bareWithKey = () => {
    const expected = createHmac(hash, key).update(`${timestamp}${payloadSeparator}`).update(rawBody).digest();
    return timingSafeEqual(expected, Buffer.from(signatureHex, 'hex'));
  };
  const bareFull = () => {
    if (!bare()) throw new Error('the bare check must pass');
    const event: unknown = JSON.parse(rawBody.toString('utf8'));
    if (!validateDeviceOnlineEvent(event)) throw new Error('the event must be valid');
    return event;
  };
  const results = compareThroughput(
    [
      {
        label: 'verifyWebhook (signature + JSON + schema)',
        run: () => verifyWebhook(rawBody, headers, secrets),
      },
      { label: 'bare HMAC + JSON.parse + standalone', run: bareFull },
      {
        label: 'verifyWebhookSignature (generated)',
        run: () => verifyWebhookSignature(rawBody, headers, secrets),
      },
      { label: 'createHmac(KeyObject) + timingSafeEqual', run: bareWithKey },
      { label: 'createHmac + timingSafeEqual (bare)', run: bare },
    ],
    { rounds: 61, operationsPerRound: 2_000 },
  );
  const [full, fullBaseline, signature, , signatureBaseline] = results;
  if (!full || !fullBaseline || !signature || !signatureBaseline)
    throw new Error('a candidate has no result');
  return {
    text: formatThroughput(`webhook signature check, ${bodyBytes} B body, one secret`, results),
    checks: [
      pairedRatio('webhook signature', signature, signatureBaseline, signatureTarget),
      pairedRatio('webhook verification', full, fullBaseline, fullTarget),
    ],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await run()).text);
