import { apiPolicies } from '../../../generated/types/facts.js';
import { verifyWebhook } from '../../../generated/webhooks/index.js';
import type { ClockAnchor, DeliveryRow } from '../../storage/rows.js';
import { type Receipt, refusedAlways } from './chaos-receivers.js';

const delays: readonly number[] = apiPolicies.webhookDelivery.retryDelaysSeconds;

/** A wall-clock interval around a crash: from shortly before the kill until the restarted service sends again. */
export type CrashWindow = { from: number; to: number };

export interface ChaosInput {
  deliveries: DeliveryRow[];
  receipts: Receipt[];
  secrets: ReadonlyMap<number, string>;
  anchor: ClockAnchor;
  crashes: CrashWindow[];
  /** Wall-clock milliseconds of scheduling slack allowed on top of +5 %. */
  slackWallMs: number;
}

export interface ChaosReport {
  deliveries: number;
  delivered: number;
  undelivered: number;
  notFinal: number;
  lost: number;
  duplicatesAroundCrash: number;
  duplicatesOutsideCrash: number;
  retriesChecked: number;
  retriesEarly: number;
  retriesLate: number;
  retriesAcrossCrash: number;
  /** How much later than its delay a retry left, in wall-clock ms (outside crashes): median and max. */
  retryLatenessWallMs: { median: number; max: number };
  signaturesChecked: number;
  /** The HMAC did not verify with the webhook's secret (the generated verifier, any timestamp). */
  signaturesFailed: number;
  /** Verified, but signed further from the receipt than the spec's tolerance in scaled time (a loaded machine). */
  signaturesOutsideTolerance: number;
  /** Deliveries the receiver refused on every attempt (chosen by id, see `refusedAlways`). */
  refusedAlways: number;
  /** Of those, how many did not end undelivered after exactly the schedule's attempts. */
  refusedAlwaysNotUndelivered: number;
  /** Deliveries with more recorded attempts than the schedule allows (the first and one per retry delay). */
  attemptsBeyondSchedule: number;
}

export function checkChaos(input: ChaosInput): ChaosReport {
  const { anchor } = input;
  const wallOf = (scaledMs: number) => anchor.wallMs + (scaledMs - anchor.scaledMs) / anchor.scale;
  const scaledOf = (wallMs: number) => anchor.scaledMs + (wallMs - anchor.wallMs) * anchor.scale;
  const inCrash = (from: number, to: number) =>
    input.crashes.some((crash) => from <= crash.to && to >= crash.from);
  const byDelivery = new Map<string, Receipt[]>();
  for (const receipt of input.receipts)
    byDelivery.set(receipt.deliveryId, [...(byDelivery.get(receipt.deliveryId) ?? []), receipt]);
  const lateness: number[] = [];
  const report: ChaosReport = {
    deliveries: input.deliveries.length,
    delivered: 0,
    undelivered: 0,
    notFinal: 0,
    lost: 0,
    duplicatesAroundCrash: 0,
    duplicatesOutsideCrash: 0,
    retriesChecked: 0,
    retriesEarly: 0,
    retriesLate: 0,
    retriesAcrossCrash: 0,
    retryLatenessWallMs: { median: 0, max: 0 },
    signaturesChecked: 0,
    signaturesFailed: 0,
    signaturesOutsideTolerance: 0,
    refusedAlways: 0,
    refusedAlwaysNotUndelivered: 0,
    attemptsBeyondSchedule: 0,
  };
  for (const delivery of input.deliveries) {
    const receipts = byDelivery.get(delivery.id) ?? [];
    const accepted = receipts.findIndex((receipt) => receipt.status < 300);
    if (delivery.status === 'delivered') report.delivered += 1;
    else if (delivery.status === 'undelivered') report.undelivered += 1;
    else report.notFinal += 1;
    // Lost: recorded delivered without the receiver taking it, or never received at all.
    if ((delivery.status === 'delivered' && accepted === -1) || receipts.length === 0) report.lost += 1;
    if (receipts[0]?.webhookIndex === 0 && refusedAlways(delivery.id)) {
      report.refusedAlways += 1;
      if (delivery.status !== 'undelivered' || delivery.attempts.length !== delays.length + 1)
        report.refusedAlwaysNotUndelivered += 1;
    }
    if (delivery.attempts.length > delays.length + 1) report.attemptsBeyondSchedule += 1;
    const first = receipts[accepted];
    for (const _later of receipts.slice(accepted === -1 ? receipts.length : accepted + 1)) {
      if (first !== undefined && inCrash(first.receivedAt, first.receivedAt))
        report.duplicatesAroundCrash += 1;
      else report.duplicatesOutsideCrash += 1;
    }
    checkRetries(
      delivery,
      report,
      (from, to) => inCrash(wallOf(from), wallOf(to)),
      input.slackWallMs,
      anchor.scale,
      lateness,
    );
  }
  lateness.sort((a, b) => a - b);
  report.retryLatenessWallMs = {
    median: Math.round(lateness[Math.floor(lateness.length / 2)] ?? 0),
    max: Math.round(lateness.at(-1) ?? 0),
  };
  for (const receipt of input.receipts) {
    report.signaturesChecked += 1;
    const headers = receipt.headers as Record<string, string>;
    const secrets = [input.secrets.get(receipt.webhookIndex) ?? ''];
    const nowSeconds = Math.floor(scaledOf(receipt.receivedAt) / 1000);
    try {
      verifyWebhook(receipt.body, headers, secrets, { nowSeconds });
    } catch {
      // At 1000× a 300 s tolerance is 0.3 s of wall time: check the HMAC itself with the timestamp window opened.
      try {
        verifyWebhook(receipt.body, headers, secrets, {
          nowSeconds,
          toleranceSeconds: Number.MAX_SAFE_INTEGER,
        });
        report.signaturesOutsideTolerance += 1;
      } catch {
        report.signaturesFailed += 1;
      }
    }
  }
  return report;
}

/** Each gap between a failed attempt's end and the next attempt, against the schedule: within ±5 % plus slack. */
function checkRetries(
  delivery: DeliveryRow,
  report: ChaosReport,
  spansCrash: (fromScaled: number, toScaled: number) => boolean,
  slackWallMs: number,
  scale: number,
  lateness: number[],
): void {
  for (let index = 1; index < delivery.attempts.length; index += 1) {
    const failed = delivery.attempts[index - 1];
    const next = delivery.attempts[index];
    const delaySeconds = delays[index - 1];
    if (failed === undefined || next === undefined || delaySeconds === undefined) continue;
    const failedAt = Date.parse(failed.attemptedAt) + failed.durationMs * scale;
    const gap = Date.parse(next.attemptedAt) - failedAt;
    report.retriesChecked += 1;
    if (gap < delaySeconds * 1000 * 0.95) report.retriesEarly += 1;
    if (spansCrash(failedAt, Date.parse(next.attemptedAt))) report.retriesAcrossCrash += 1;
    else {
      lateness.push((gap - delaySeconds * 1000) / scale);
      if (gap > delaySeconds * 1000 * 1.05 + slackWallMs * scale) report.retriesLate += 1;
    }
  }
}
