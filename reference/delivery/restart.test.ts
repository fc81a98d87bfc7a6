import { describe, expect, it } from 'vitest';
import { apiPolicies } from '../../generated/types/facts.js';
import { startDeliveryService } from './testing/delivery-service.js';
import { startReceiver } from './testing/receiver.js';

const [firstDelaySeconds = 60] = apiPolicies.webhookDelivery.retryDelaysSeconds;
const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A webhook whose receiver fails the first attempt and takes the rest; the first attempt made and recorded. */
async function failedOnce(timeScale: number) {
  let calls = 0;
  const receiver = await startReceiver((_request, response) =>
    response.writeHead(++calls === 1 ? 503 : 204).end(),
  );
  const service = await startDeliveryService({ timeScale });
  const webhook = (
    await service.api('POST', '/webhooks', { url: receiver.url, events: ['report.generated'] })
  ).body;
  await service.api('POST', `/webhooks/${webhook.id}/test`);
  await receiver.waitFor(1);
  let pending: { nextAttemptAt: string; attempts: unknown[] } | undefined;
  while (pending === undefined) {
    const [delivery] = (await service.api('GET', `/webhooks/${webhook.id}/deliveries`)).body.data;
    if (delivery.attempts.length === 1) pending = delivery;
    else await pause(10);
  }
  await service.stop();
  return { receiver, service, webhook, failedAtWall: receiver.received[0]?.receivedAt ?? 0, pending };
}

describe('restart', () => {
  it('keeps the clock running: a retry that fell due while stopped goes out once back, never early', async () => {
    const timeScale = 30;
    const { receiver, service, webhook, pending } = await failedOnce(timeScale);
    expect(receiver.received).toHaveLength(1);
    const dueAt = Date.parse(pending.nextAttemptAt);
    // Stay down past the retry's due time.
    await pause((firstDelaySeconds * 1000) / timeScale + 500);
    const restarted = await service.restart();
    try {
      const back = Date.now();
      const [, retry] = await receiver.waitFor(2, 10_000);
      expect((retry?.receivedAt ?? 0) - back).toBeLessThan(2000);
      // The attempt is recorded a moment after the receiver answers (results are written in batches).
      const secondAttempt = async () => {
        const [delivery] = (await restarted.api('GET', `/webhooks/${webhook.id}/deliveries`)).body.data;
        return delivery.attempts[1]?.attemptedAt as string | undefined;
      };
      await expect.poll(secondAttempt, { timeout: 10_000 }).toBeDefined();
      expect(Date.parse((await secondAttempt()) ?? '')).toBeGreaterThanOrEqual(dueAt);
      // Objects made after the restart carry later timestamps than the ones made before it.
      const later = await restarted.api('POST', '/webhooks', {
        url: receiver.url,
        events: ['report.generated'],
      });
      expect(Date.parse(later.body.createdAt)).toBeGreaterThan(dueAt);
    } finally {
      await restarted.close();
      await receiver.close();
    }
  });

  it('waits for a retry not yet due at the restart', async () => {
    const timeScale = 10;
    const { receiver, service, failedAtWall, pending } = await failedOnce(timeScale);
    const restarted = await service.restart();
    try {
      const [, retry] = await receiver.waitFor(2, 20_000);
      expect((retry?.receivedAt ?? 0) - failedAtWall).toBeGreaterThanOrEqual(
        (firstDelaySeconds * 1000) / timeScale - 50,
      );
      expect(pending.attempts).toHaveLength(1);
    } finally {
      await restarted.close();
      await receiver.close();
    }
  });
});
