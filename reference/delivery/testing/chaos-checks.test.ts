import { describe, expect, it } from 'vitest';
import { apiPolicies } from '../../../generated/types/facts.js';
import type { ClockAnchor, DeliveryRow } from '../../storage/rows.js';
import { checkChaos, recoveryWindows } from './chaos-checks.js';

// Scaled time runs 1000× the wall clock from an anchor at 0, so a wall-clock millisecond is a scaled second.
const anchor: ClockAnchor = { wallMs: 0, scaledMs: 0, scale: 1000 };
const wallOf = (scaledMs: number) => scaledMs / 1000;
const firstDelayMs = (apiPolicies.webhookDelivery.retryDelaysSeconds[0] ?? 0) * 1000;

/** A failing delivery whose attempts were made at these scaled times (each took no time). */
function deliveryAttemptedAt(id: string, ...scaledTimes: number[]): DeliveryRow {
  return {
    id,
    status: 'pending',
    attempts: scaledTimes.map((at) => ({
      attemptedAt: new Date(at).toISOString(),
      durationMs: 0,
      statusCode: 500,
    })),
  } as unknown as DeliveryRow;
}

// One crash window of 100 wall ms, in which the first retry of a delivery first attempted at 0 falls due.
const crashFrom = wallOf(firstDelayMs) - 50;
const crash = { from: crashFrom, to: crashFrom + 100 };

describe('recoveryWindows', () => {
  it('stretches a crash until the retries that fell due in it were made, within the bound', () => {
    // Due at crashFrom + 50, made 400 ms after the window's end (the restart's backlog).
    const backlog = deliveryAttemptedAt('dlv_backlog', 0, (crash.to + 400) * 1000);
    const { windows, lateRetries } = recoveryWindows(
      { deliveries: [backlog], crashes: [crash], anchor, recoveryBoundWallMs: 1000 },
      wallOf,
    );
    expect(windows).toEqual([{ from: crash.from, to: crash.to + 400 }]);
    expect(lateRetries).toBe(0);
  });

  it('counts a retry due in a crash and made after the bound, and does not stretch the window for it', () => {
    const forgotten = deliveryAttemptedAt('dlv_forgotten', 0, (crash.to + 5000) * 1000);
    const { windows, lateRetries } = recoveryWindows(
      { deliveries: [forgotten], crashes: [crash], anchor, recoveryBoundWallMs: 1000 },
      wallOf,
    );
    expect(windows).toEqual([crash]);
    expect(lateRetries).toBe(1);
  });

  it('leaves a crash alone when no retry fell due in it', () => {
    // Its retry falls due after the crash window.
    const later = deliveryAttemptedAt(
      'dlv_later',
      crash.to * 1000 + 10_000,
      crash.to * 1000 + 10_000 + firstDelayMs,
    );
    expect(
      recoveryWindows({ deliveries: [later], crashes: [crash], anchor, recoveryBoundWallMs: 1000 }, wallOf)
        .windows,
    ).toEqual([crash]);
  });
});

describe('checkChaos retries after a crash', () => {
  const input = (deliveries: DeliveryRow[]) => ({
    deliveries,
    receipts: [],
    secrets: new Map<number, string>(),
    anchor,
    crashes: [crash],
    slackWallMs: 100,
    recoveryBoundWallMs: 1000,
  });
  // The backlog: a retry that fell due in the crash, made 400 wall ms after the window.
  const backlogEnd = (crash.to + 400) * 1000;

  it('judges a retry queued behind the restart backlog as across the crash, not late', () => {
    // Failed after the window, due 100 ms before the backlog was made, made 250 ms after it: later than delay + 5 % +
    // slack, which is what the backlog does to it.
    const queued = deliveryAttemptedAt(
      'dlv_queued',
      backlogEnd - 100_000 - firstDelayMs,
      backlogEnd + 250_000,
    );
    const backlog = deliveryAttemptedAt('dlv_backlog', 0, backlogEnd);
    const report = checkChaos(input([backlog, queued]));
    expect(report.retriesLate).toBe(0);
    expect(report.retriesAcrossCrash).toBe(2);
    expect(report.recoveryWallMs).toEqual([400]);
  });

  it('still counts a late retry due after the restart caught up', () => {
    const backlog = deliveryAttemptedAt('dlv_backlog', 0, backlogEnd);
    // Failed after the backlog was made; retried 1.2 wall seconds after its delay, beyond 5 % and the slack.
    const failedAt = backlogEnd + 100_000;
    const late = deliveryAttemptedAt('dlv_late', failedAt, failedAt + firstDelayMs + 1_200_000);
    const report = checkChaos(input([backlog, late]));
    expect(report.retriesLate).toBe(1);
    // Due 100 wall ms after the backlog was made, plus its delay; the window was stretched to the backlog's end.
    expect(report.lateRetries).toEqual([
      {
        delaySeconds: firstDelayMs / 1000,
        lateWallMs: 1200,
        dueAfterRecoveryWallMs: 100 + wallOf(firstDelayMs),
      },
    ]);
  });

  it('judges a retry due while the restart catches up (within the slack after the window) from the end of the slack', () => {
    const backlog = deliveryAttemptedAt('dlv_backlog', 0, backlogEnd);
    // Failed 10 wall ms after the stretched window, so due 70 ms after it (slack 100 ms); made 120 ms late, which is
    // beyond 5 % and the slack from when it fell due, but 90 ms after the slack's end.
    const failedAt = backlogEnd + 10_000;
    const due = failedAt + firstDelayMs;
    const waited = deliveryAttemptedAt('dlv_waited', failedAt, due + 120_000);
    const report = checkChaos(input([backlog, waited]));
    expect(report.retriesDueWhileCatchingUp).toBe(1);
    expect(report.retriesLate).toBe(0);
    // Made 500 ms after it fell due: 470 ms after the slack's end, still late.
    const stuck = deliveryAttemptedAt('dlv_stuck', failedAt, due + 500_000);
    expect(checkChaos(input([backlog, stuck])).retriesLate).toBe(1);
  });

  it('counts as judged the retries outside every crash, on time or late, and not one across it', () => {
    const backlog = deliveryAttemptedAt('dlv_backlog', 0, backlogEnd);
    // Both failed 100 wall ms after the backlog was made: one retried on time, one 1.2 wall seconds late.
    const failedAt = backlogEnd + 100_000;
    const onTime = deliveryAttemptedAt('dlv_on_time', failedAt, failedAt + firstDelayMs);
    const late = deliveryAttemptedAt('dlv_late', failedAt, failedAt + firstDelayMs + 1_200_000);
    expect(checkChaos(input([backlog, onTime, late]))).toMatchObject({
      retriesChecked: 3,
      retriesAcrossCrash: 1,
      retriesJudged: 2,
      retriesLate: 1,
    });
  });

  it('says of a late retry before any crash that it came before one', () => {
    const early = deliveryAttemptedAt('dlv_early', 0, firstDelayMs + 2_000_000);
    const report = checkChaos({ ...input([early]), crashes: [{ from: 10_000, to: 10_100 }] });
    expect(report.lateRetries).toEqual([
      { delaySeconds: firstDelayMs / 1000, lateWallMs: 2000, dueAfterRecoveryWallMs: null },
    ]);
  });
});
