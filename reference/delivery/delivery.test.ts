import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPolicies } from '../../generated/types/facts.js';
import {
  verifyWebhook,
  verifyWebhookSignature,
  webhookSignatureHeader,
} from '../../generated/webhooks/index.js';
import { type DeliveryService, startDeliveryService } from './testing/delivery-service.js';
import { answer, type Received, startReceiver } from './testing/receiver.js';

const policy = apiPolicies.webhookDelivery;
const deliveryIdHeader = policy.idempotency.header.toLowerCase();
const timeScale = 6000;
// Scheduling slack on top of each delay (stated in ADR 0012): the dispatcher's timer plus a claim, in wall time.
const slackWallMs = 250;

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function createWebhook(service: DeliveryService, url: string) {
  const created = await service.api('POST', '/webhooks', { url, events: ['report.generated'] });
  expect(created.status).toBe(201);
  return created.body as { id: string; signingSecret: string };
}

async function deliveries(service: DeliveryService, webhookId: string) {
  return (await service.api('GET', `/webhooks/${webhookId}/deliveries?limit=100`)).body.data as Array<{
    id: string;
    status: string;
    eventId: string;
    nextAttemptAt: string | null;
    attempts: Array<{
      attemptedAt: string;
      statusCode: number | null;
      error: string | null;
      durationMs: number;
    }>;
  }>;
}

const serviceSeconds = (service: DeliveryService) =>
  Math.floor(service.service.dependencies.clock.now() / 1000);

/** The service clock's unix seconds when a request was received (the receiver's clock runs scaled too). */
function secondsAtReceipt(service: DeliveryService, received: Received): number {
  const clock = service.service.dependencies.clock;
  return Math.floor((clock.now() - (Date.now() - received.receivedAt) * clock.scale) / 1000);
}

/** At 6000× the spec's 300 s tolerance is 50 ms of wall time; a loaded machine gets 2 s of wall time on top. */
function verify(service: DeliveryService, received: Received, secrets: string[]) {
  return verifyWebhook(received.body, received.headers as Record<string, string>, secrets, {
    nowSeconds: secondsAtReceipt(service, received),
    toleranceSeconds: policy.signature.toleranceSeconds + 2 * service.service.dependencies.clock.scale,
  });
}

describe('webhook delivery (scaled clock)', () => {
  let service: DeliveryService;
  beforeAll(async () => {
    service = await startDeliveryService({ timeScale });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('sends webhook.test signed over the exact body, with the delivery id; the generated verifier accepts it', async () => {
    const receiver = await startReceiver();
    const webhook = await createWebhook(service, receiver.url);
    const test = await service.api('POST', `/webhooks/${webhook.id}/test`);
    const [received] = await receiver.waitFor(1);
    const event = verify(service, received as Received, [webhook.signingSecret]);
    expect(event).toMatchObject({ id: test.body.id, type: 'webhook.test' });
    const [delivery] = await until(async () => {
      const list = await deliveries(service, webhook.id);
      return list[0]?.status === 'delivered' ? list : undefined;
    });
    expect(received?.headers[deliveryIdHeader]).toBe(delivery?.id);
    expect(delivery?.attempts).toEqual([
      { attemptedAt: expect.any(String), statusCode: 204, error: null, durationMs: expect.any(Number) },
    ]);
    await receiver.close();
  });

  it('retries on the schedule, ends undelivered, logs each failure; a replay sends it again with the same id', async () => {
    let status = 500;
    const receiver = await startReceiver((_request, response) => response.writeHead(status).end());
    const webhook = await createWebhook(service, receiver.url);
    await service.api('POST', `/webhooks/${webhook.id}/test`);
    const [delivery] = await until(async () => {
      const list = await deliveries(service, webhook.id);
      return list[0]?.status === 'undelivered' ? list : undefined;
    }, 30_000);
    const attempts = delivery?.attempts ?? [];
    expect(attempts).toHaveLength(policy.retries + 1);
    expect(receiver.received).toHaveLength(policy.retries + 1);
    for (const [index, delaySeconds] of policy.retryDelaysSeconds.entries()) {
      const failed = attempts[index];
      const next = attempts[index + 1];
      if (failed === undefined || next === undefined) throw new Error('an attempt is missing');
      expect(failed).toMatchObject({ statusCode: 500, error: 'status 500' });
      const failedAt = Date.parse(failed.attemptedAt) + failed.durationMs * timeScale;
      const gap = Date.parse(next.attemptedAt) - failedAt;
      // Never early; late by at most 5 % plus the stated slack.
      expect(gap).toBeGreaterThanOrEqual(delaySeconds * 1000);
      expect(gap).toBeLessThanOrEqual(delaySeconds * 1000 * 1.05 + slackWallMs * timeScale);
    }
    expect(delivery?.nextAttemptAt).toBeNull();
    const logged = service.logged.filter((entry) => entry.deliveryId === delivery?.id);
    expect(logged).toHaveLength(policy.retries + 1);
    expect(logged[0]).toMatchObject({ message: 'webhook delivery attempt failed', statusCode: 500 });

    status = 204;
    const replayed = await service.api('POST', `/webhooks/${webhook.id}/deliveries/${delivery?.id}/retry`);
    expect(replayed.status).toBe(200);
    expect(replayed.body).toMatchObject({ status: 'pending', id: delivery?.id });
    const received = await receiver.waitFor(policy.retries + 2);
    expect(received.at(-1)?.headers[deliveryIdHeader]).toBe(delivery?.id);
    expect(received.at(-1)?.body).toBe(received[0]?.body);
    await until(async () =>
      (await deliveries(service, webhook.id))[0]?.status === 'delivered' ? true : undefined,
    );
    const unknown = await service.api('POST', `/webhooks/${webhook.id}/deliveries/whd_unknown/retry`);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'resource_missing']);
    await receiver.close();
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    const target = await startReceiver();
    const receiver = await startReceiver((_request, response) =>
      response.writeHead(307, { location: target.url }).end(),
    );
    const webhook = await createWebhook(service, receiver.url);
    await service.api('POST', `/webhooks/${webhook.id}/test`);
    await receiver.waitFor(2);
    const [delivery] = await deliveries(service, webhook.id);
    expect(delivery?.attempts[0]).toMatchObject({ statusCode: 307, error: 'redirect 307 not followed' });
    expect(target.received).toHaveLength(0);
    await service.api('DELETE', `/webhooks/${webhook.id}`);
    await Promise.all([target.close(), receiver.close()]);
  });

  it('stops delivering to a deleted webhook', async () => {
    const receiver = await startReceiver(answer(500));
    const webhook = await createWebhook(service, receiver.url);
    await service.api('POST', `/webhooks/${webhook.id}/test`);
    await receiver.waitFor(1);
    expect((await service.api('DELETE', `/webhooks/${webhook.id}`)).status).toBe(200);
    const countAtDelete = receiver.received.length;
    // The next three retries would fall in this time (60 s, 300 s and 1800 s scaled).
    await new Promise((resolve) => setTimeout(resolve, (2160 * 1000) / timeScale + 500));
    expect(receiver.received.length).toBeLessThanOrEqual(countAtDelete + 1);
    await receiver.close();
  });

  it('refuses a link-local (metadata) webhook url even where private targets are allowed', async () => {
    const refused = await service.api('POST', '/webhooks', {
      url: 'https://169.254.169.254/latest/meta-data',
      events: ['report.generated'],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'webhook_url_forbidden', param: 'url' });
  });

  it.each([
    'https://user:secret@hooks.example.invalid/hook',
    'https://user@hooks.example.invalid/hook',
    'https://:secret@hooks.example.invalid/hook',
  ])('refuses a webhook url with user information, which deliveries never send: %s', async (url) => {
    const refused = await service.api('POST', '/webhooks', { url, events: ['report.generated'] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'webhook_url_forbidden', param: 'url' });
    expect(refused.body.error.message).toContain('user information');
  });
});

describe('webhook delivery (real time)', () => {
  let service: DeliveryService;
  beforeAll(async () => {
    service = await startDeliveryService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('does not hold later deliveries back behind a failed one to the same webhook (no ordering)', async () => {
    let calls = 0;
    const receiver = await startReceiver((_request, response) =>
      response.writeHead(++calls === 1 ? 503 : 204).end(),
    );
    const webhook = await createWebhook(service, receiver.url);
    await service.api('POST', `/webhooks/${webhook.id}/test`);
    await receiver.waitFor(1);
    await service.api('POST', `/webhooks/${webhook.id}/test`);
    await receiver.waitFor(2);
    const [second, first] = await until(async () => {
      const list = await deliveries(service, webhook.id);
      return list[0]?.status === 'delivered' ? list : undefined;
    });
    expect(first?.status).toBe('pending');
    expect(Date.parse(first?.nextAttemptAt ?? '')).toBeGreaterThan(
      Date.parse(second?.attempts[0]?.attemptedAt ?? ''),
    );
    await service.api('DELETE', `/webhooks/${webhook.id}`);
    await receiver.close();
  });

  it('sends a replay that arrived while the delivery was being sent, instead of settling over it', async () => {
    const held: Array<() => void> = [];
    // The first request is answered only once the replay has been accepted; later ones at once.
    const receiver = await startReceiver((_request, response) => {
      const reply = () => response.writeHead(204).end();
      if (held.length === 0) held.push(reply);
      else reply();
    });
    const webhook = await createWebhook(service, receiver.url);
    await service.api('POST', `/webhooks/${webhook.id}/test`);
    const [first] = await receiver.waitFor(1);
    const deliveryId = first?.headers[deliveryIdHeader];
    const replayed = await service.api('POST', `/webhooks/${webhook.id}/deliveries/${deliveryId}/retry`);
    expect(replayed.body).toMatchObject({ id: deliveryId, status: 'pending' });
    held[0]?.();
    // The first attempt's 204 must not mark the replayed delivery delivered: the replay goes out too.
    const received = await receiver.waitFor(2, 5000);
    expect(received[1]?.headers[deliveryIdHeader]).toBe(deliveryId);
    const [delivery] = await until(async () => {
      const list = await deliveries(service, webhook.id);
      return list[0]?.status === 'delivered' ? list : undefined;
    });
    // The attempt the replay superseded is not recorded; the replay's is.
    expect(delivery?.attempts).toHaveLength(1);
    await service.api('DELETE', `/webhooks/${webhook.id}`);
    await receiver.close();
  });

  it('keeps delivering to other webhooks while one receiver is slow', async () => {
    const slowMs = 3000;
    const slow = await startReceiver((_request, response) => {
      setTimeout(() => response.writeHead(204).end(), slowMs);
    });
    const fast = await startReceiver();
    const slowHook = await createWebhook(service, slow.url);
    const fastHook = await createWebhook(service, fast.url);
    for (let index = 0; index < 24; index += 1) await service.api('POST', `/webhooks/${slowHook.id}/test`);
    await slow.waitFor(1);
    const asked = Date.now();
    await service.api('POST', `/webhooks/${fastHook.id}/test`);
    const [received] = await fast.waitFor(1, slowMs);
    expect((received?.receivedAt ?? Number.POSITIVE_INFINITY) - asked).toBeLessThan(slowMs / 2);
    await Promise.all([slow.close(), fast.close()]);
  });
});

describe('signing secret roll', () => {
  it('signs with the new and the previous secret during the overlap, then with the new one only', async () => {
    // 86 400 s of overlap pass in under a second.
    const service = await startDeliveryService({ timeScale: 200_000 });
    const receiver = await startReceiver();
    try {
      const webhook = await createWebhook(service, receiver.url);
      const rolled = await service.api('POST', `/webhooks/${webhook.id}/roll-secret`);
      expect(rolled.status).toBe(200);
      expect(rolled.body.signingSecret).not.toBe(webhook.signingSecret);
      await service.api('POST', `/webhooks/${webhook.id}/test`);
      const [during] = await receiver.waitFor(1);
      const header = String(during?.headers[webhookSignatureHeader.toLowerCase()]);
      expect(header.match(/v1=/g)).toHaveLength(2);
      const options = { nowSeconds: serviceSeconds(service), toleranceSeconds: 10_000_000 };
      for (const secret of [webhook.signingSecret, rolled.body.signingSecret])
        verifyWebhookSignature(
          during?.body ?? '',
          during?.headers as Record<string, string>,
          [secret],
          options,
        );
      await new Promise((resolve) =>
        setTimeout(resolve, (policy.secretRotation.overlapSeconds * 1000) / 200_000 + 200),
      );
      await service.api('POST', `/webhooks/${webhook.id}/test`);
      const [, after] = await receiver.waitFor(2);
      const headers = after?.headers as Record<string, string>;
      expect(String(headers[webhookSignatureHeader.toLowerCase()]).match(/v1=/g)).toHaveLength(1);
      const later = { nowSeconds: serviceSeconds(service), toleranceSeconds: 10_000_000 };
      verifyWebhookSignature(after?.body ?? '', headers, [rolled.body.signingSecret], later);
      expect(() =>
        verifyWebhookSignature(after?.body ?? '', headers, [webhook.signingSecret], later),
      ).toThrow();
    } finally {
      await receiver.close();
      await service.close();
    }
  });
});

describe('webhook targets where private addresses are not allowed (the default)', () => {
  it('refuses loopback, private and plain-http urls at creation with webhook_url_forbidden', async () => {
    const service = await startDeliveryService({ allowPrivateWebhookTargets: false });
    try {
      for (const url of [
        'http://127.0.0.1:9/hook',
        'https://127.0.0.1/hook',
        'https://10.1.2.3/hook',
        'https://[::1]/hook',
        'https://[::ffff:192.168.0.1]/hook',
        'https://localhost/hook',
      ]) {
        const refused = await service.api('POST', '/webhooks', { url, events: ['report.generated'] });
        expect([url, refused.status, refused.body.error?.code]).toEqual([url, 400, 'webhook_url_forbidden']);
      }
      // A name that does not resolve (yet) is accepted: every connection checks its addresses again.
      const accepted = await service.api('POST', '/webhooks', {
        url: 'https://hooks.example.invalid/telemetry',
        events: ['report.generated'],
      });
      expect(accepted.status).toBe(201);
    } finally {
      await service.close();
    }
  });
});
