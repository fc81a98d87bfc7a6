// npx tsx bench/webhook-signature.ts — the generated webhook verifier against a bare node:crypto HMAC + compare.
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  signWebhook,
  verifyWebhook,
  verifyWebhookSignature,
  webhookEventHeader,
  webhookSignatureHeader,
  webhookSignatureScheme,
} from '../generated/webhooks/index.js';
import { compareThroughput, formatThroughput } from './harness.js';

const bodyBytes = 300;

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

export async function run(): Promise<string> {
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
  const results = compareThroughput([
    {
      label: 'verifyWebhook (signature + JSON + schema)',
      run: () => verifyWebhook(rawBody, headers, secrets),
    },
    {
      label: 'verifyWebhookSignature (generated)',
      run: () => verifyWebhookSignature(rawBody, headers, secrets),
    },
    { label: 'createHmac + timingSafeEqual (bare)', run: bare },
  ]);
  return formatThroughput(`webhook signature check, ${bodyBytes} B body, one secret`, results);
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
