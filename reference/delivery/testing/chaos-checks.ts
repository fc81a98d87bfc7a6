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
  /**
   * How long after a crash window's end the restarted service may take to make the retries that fell due in it
   * (wall-clock ms). Until it has, later retries wait behind them and are judged as across the crash.
   */
  recoveryBoundWallMs: number;
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
  /** Retries judged for lateness: those checked less those across a crash (the only ones `retriesLate` can count). */
  retriesJudged: number;
  /** Retries that fell due in a crash window and were made more than the recovery bound after its end. */
  retriesLateAfterCrash: number;
  /** Retries that fell due within the slack after a stretched crash window, judged from the slack's end. */
  retriesDueWhileCatchingUp: number;
  /** Per crash, how long after its window's end the last retry that fell due in it was made (wall-clock ms, ≥ 0). */
  recoveryWallMs: number[];
  /** How much later than its delay a retry left, in wall-clock ms (outside crashes): median and max. */
  retryLatenessWallMs: { median: number; max: number };
  /**
   * The late retries that left latest (up to `lateRetriesShown`, the most late first), to tell a stall from a pattern
   * when a run fails: the delay each followed, how late it left, and how long after the last crash's stretched window
   * it fell due (wall-clock ms; null before any crash).
   */
  lateRetries: LateRetry[];
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

export interface LateRetry {
  delaySeconds: number;
  lateWallMs: number;
  dueAfterRecoveryWallMs: number | null;
}

const lateRetriesShown = 20;

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
    retriesJudged: 0,
    retriesLateAfterCrash: 0,
    retriesDueWhileCatchingUp: 0,
    recoveryWallMs: [],
    retryLatenessWallMs: { median: 0, max: 0 },
    lateRetries: [],
    signaturesChecked: 0,
    signaturesFailed: 0,
    signaturesOutsideTolerance: 0,
    refusedAlways: 0,
    refusedAlwaysNotUndelivered: 0,
    attemptsBeyondSchedule: 0,
  };
  const recovery = recoveryWindows(input, wallOf);
  report.recoveryWallMs = recovery.windows.map(
    (window, index) => window.to - (input.crashes[index]?.to ?? 0),
  );
  report.retriesLateAfterCrash = recovery.lateRetries;
  const recovering = (from: number, to: number) =>
    recovery.windows.some((window) => from <= window.to && to >= window.from);
  // Once its backlog of retries is made, a restarted service is still catching up (those sends in flight and their
  // outcomes written, the first attempts pending at the kill resumed): a retry falling due within the slack after the
  // stretched window is judged from the slack's end. Local runs put the latest retries there (ADR 0012, wave 18).
  const judgedFrom = (dueScaled: number): number => {
    const due = wallOf(dueScaled);
    for (const window of recovery.windows)
      if (due > window.to && due < window.to + input.slackWallMs) {
        report.retriesDueWhileCatchingUp += 1;
        return scaledOf(window.to + input.slackWallMs);
      }
    return dueScaled;
  };
  const noteLate = (dueScaled: number, delayMs: number, lateWallMs: number) => {
    const due = wallOf(dueScaled);
    const lastEnd = Math.max(...recovery.windows.map((window) => window.to).filter((end) => end <= due));
    report.lateRetries.push({
      delaySeconds: delayMs / 1000,
      lateWallMs: Math.round(lateWallMs),
      dueAfterRecoveryWallMs: Number.isFinite(lastEnd) ? Math.round(due - lastEnd) : null,
    });
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
      (from, to) => recovering(wallOf(from), wallOf(to)),
      input.slackWallMs,
      anchor.scale,
      lateness,
      { judgedFrom, noteLate },
    );
  }
  report.lateRetries = report.lateRetries
    .sort((left, right) => right.lateWallMs - left.lateWallMs)
    .slice(0, lateRetriesShown);
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

/** A retry: when the attempt before it ended, its delay, and when it was made (scaled milliseconds). */
interface Retry {
  failedAt: number;
  delayMs: number;
  madeAt: number;
}

/** Each retry of a delivery, from its recorded attempts. */
function retriesOf(delivery: DeliveryRow, scale: number): Retry[] {
  const retries: Retry[] = [];
  for (let index = 1; index < delivery.attempts.length; index += 1) {
    const failed = delivery.attempts[index - 1];
    const next = delivery.attempts[index];
    const delaySeconds = delays[index - 1];
    if (failed === undefined || next === undefined || delaySeconds === undefined) continue;
    const failedAt = Date.parse(failed.attemptedAt) + failed.durationMs * scale;
    retries.push({ failedAt, delayMs: delaySeconds * 1000, madeAt: Date.parse(next.attemptedAt) });
  }
  return retries;
}

/**
 * Each crash window stretched until the restarted service has made every retry that fell due in it, but by at most
 * the recovery bound: those retries are a backlog at restart, and a retry due just after the window waits behind them
 * (likely what put one retry of a fresh-clone CI run 32 ms past the slack). Retries due in a window and made later than the bound
 * are counted, so a restart that forgets or postpones them still fails.
 */
export function recoveryWindows(
  input: Pick<ChaosInput, 'deliveries' | 'crashes' | 'anchor' | 'recoveryBoundWallMs'>,
  wallOf: (scaledMs: number) => number,
): { windows: CrashWindow[]; lateRetries: number } {
  const windows = input.crashes.map((crash) => ({ ...crash }));
  let lateRetries = 0;
  for (const delivery of input.deliveries)
    for (const retry of retriesOf(delivery, input.anchor.scale)) {
      const dueAt = wallOf(retry.failedAt + retry.delayMs);
      const madeAt = wallOf(retry.madeAt);
      input.crashes.forEach((crash, index) => {
        const window = windows[index];
        if (window === undefined || dueAt < crash.from || dueAt > crash.to) return;
        if (madeAt > crash.to + input.recoveryBoundWallMs) lateRetries += 1;
        else window.to = Math.max(window.to, madeAt);
      });
    }
  return { windows, lateRetries };
}

/** Each gap between a failed attempt's end and the next attempt, against the schedule: within ±5 % plus slack. */
function checkRetries(
  delivery: DeliveryRow,
  report: ChaosReport,
  spansCrash: (fromScaled: number, toScaled: number) => boolean,
  slackWallMs: number,
  scale: number,
  lateness: number[],
  judge: {
    /** When a retry due at that scaled time is judged from (later than it while a restart catches up). */
    judgedFrom: (dueScaled: number) => number;
    noteLate: (dueScaled: number, delayMs: number, lateWallMs: number) => void;
  },
): void {
  for (const { failedAt, delayMs, madeAt } of retriesOf(delivery, scale)) {
    const gap = madeAt - failedAt;
    report.retriesChecked += 1;
    if (gap < delayMs * 0.95) report.retriesEarly += 1;
    if (spansCrash(failedAt, madeAt)) report.retriesAcrossCrash += 1;
    else {
      report.retriesJudged += 1;
      lateness.push((gap - delayMs) / scale);
      const due = failedAt + delayMs;
      if (madeAt - judge.judgedFrom(due) > delayMs * 0.05 + slackWallMs * scale) {
        report.retriesLate += 1;
        judge.noteLate(due, delayMs, (gap - delayMs) / scale);
      }
    }
  }
}
