import type { DeliveryFaults } from '../faults.js';
import type { Sender } from './sender.js';

/** The retry delays with a fault applied: one delay stretched, or the last retries dropped (reference/faults.ts). */
export function faultyRetryDelays(
  delays: readonly number[],
  faults: DeliveryFaults | undefined,
): readonly number[] {
  if (faults === undefined) return delays;
  const stretched = delays.map((delay, index) =>
    index === faults.retryDelay?.index ? delay * faults.retryDelay.factor : delay,
  );
  return stretched.slice(0, stretched.length - (faults.retriesDropped ?? 0));
}

/** The time a delivery is signed with: the attempt's, or skewed by the fault. */
export function signingTime(attemptedAtMs: number, faults: DeliveryFaults | undefined): number {
  return attemptedAtMs + (faults?.signatureSkewSeconds ?? 0) * 1000;
}

/** A sender that, under the fault, takes a 3xx answer for success. */
export function faultySender(sender: Sender, faults: DeliveryFaults | undefined): Sender {
  if (faults?.redirectCountsAsDelivered !== true) return sender;
  return {
    ...sender,
    async send(signed) {
      const result = await sender.send(signed);
      const redirect = result.statusCode !== null && result.statusCode >= 300 && result.statusCode < 400;
      return redirect ? { ...result, delivered: true, error: null } : result;
    },
  };
}
