import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiPolicies } from '../../generated/types/facts.js';
import { openStore, type StoreLocation } from '../storage/open-store.js';
import type { DeliveryRow } from '../storage/rows.js';
import { startPostgresServer } from '../storage/testing/postgres-server.js';
import { type ServiceProcess, startServiceProcess } from '../testing/service-process.js';
import { type ChaosReport, type CrashWindow, checkChaos } from './testing/chaos-checks.js';
import { type ChaosReceivers, startChaosReceivers } from './testing/chaos-receivers.js';
import { addToOutbox, fillOutbox } from './testing/outbox-filler.js';

/**
 * The durability test of ADR 0012: 10 000 events across 20 webhooks, one receiver failing half of the requests at
 * random, the service (`npm start` as a child process) killed with SIGKILL during delivery and restarted on the same
 * data; on PostgreSQL, 20 000 more once the crash is over, so that retries are judged for lateness (below). Takes a
 * few minutes: runs when TELEMETRY_CHAOS=1 (its own step of .ci/run).
 */
const enabled = process.env.TELEMETRY_CHAOS === '1';
const webhookCount = 20;
const eventsPerWebhook = 500;
// 10.6 h of retry schedule in about 38 s.
const timeScale = 1000;
// Wall-clock scheduling slack on top of +5 %: the dispatcher's timer, a retry's outcome write and its claim queued
// behind PGlite's other queries (one connection) while 10 000 first attempts drain, on a shared 2-core machine. A
// fresh-clone CI run saw a retry 985 ms late at 1 s (cause not pinned down). 1.5 s, as the conformance retry checks
// allow: a doubled third or later delay (+1.8 s or more at 1000×) is still caught. Stated in ADR 0012.
const slackWallMs = 1500;
// A restarted service first makes the retries that fell due while it was down; retries due after the crash wait
// behind them and are judged as across the crash until it has, for at most this long after the crash window (wall
// clock). A retry due in the window and made later than that counts against the restart (retriesLateAfterCrash).
const recoveryBoundWallMs = 10_000;
// A killed node's leases run out after the receiver timeout and a margin (wall clock); PGlite releases them at start.
const leaseWallMs = 25_000;

function startService(dataDir: string, postgresUrl: string | undefined): ServiceProcess {
  return startServiceProcess({
    TELEMETRY_DATA_DIR: dataDir,
    TELEMETRY_TIME_SCALE: String(timeScale),
    TELEMETRY_WEBHOOK_ALLOW_PRIVATE: 'true',
    ...(postgresUrl === undefined ? {} : { TELEMETRY_POSTGRES_URL: postgresUrl }),
  });
}

async function until(condition: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const lastDelayWallMs = ((apiPolicies.webhookDelivery.retryDelaysSeconds.at(-1) ?? 0) * 1000) / timeScale;
const attemptsInSchedule = apiPolicies.webhookDelivery.retryDelaysSeconds.length + 1;

/**
 * Every delivery either taken (a 2xx) or refused on every attempt of the schedule. An attempt in flight at a SIGKILL
 * reaches the receiver but may never be recorded, and is then made again: a delivery refused as often as the
 * schedule has attempts, one of them inside a crash window, may still owe one, due at most the last delay after the
 * last receipt.
 */
function allFinal(receivers: ChaosReceivers, expected: number, crashes: CrashWindow[]): boolean {
  const inCrash = (at: number) => crashes.some((crash) => at >= crash.from && at <= crash.to);
  let final = 0;
  for (const receipts of receivers.byDelivery().values()) {
    const last = receipts.at(-1)?.receivedAt ?? 0;
    if (
      receipts.some((receipt) => receipt.status < 300) ||
      (receipts.length >= attemptsInSchedule &&
        (!receipts.some((receipt) => inCrash(receipt.receivedAt)) ||
          Date.now() - last > lastDelayWallMs + slackWallMs))
    )
      final += 1;
  }
  return final >= expected;
}

/**
 * Fills the outbox, starts the service, kills it with SIGKILL once the receivers have seen each of `kills` requests
 * and restarts it, then (PostgreSQL only: another writer beside the running service) records `eventsAfterCrash` more
 * events per webhook once the last crash window has closed, and judges every delivery once all are final.
 */
async function chaosRun(
  location: StoreLocation,
  dataDir: string,
  kills: number[],
  eventsAfterCrash = 0,
): Promise<ChaosReport> {
  const receivers = await startChaosReceivers(webhookCount);
  const postgresUrl = location.kind === 'postgres' ? location.connectionString : undefined;
  let filled = await fillOutbox(location, timeScale, receivers.urls, eventsPerWebhook);
  const crashes: CrashWindow[] = [];
  let service = startService(dataDir, postgresUrl);
  await service.waitFor(/REST API/, 60_000);
  for (const receivedBeforeKill of kills) {
    await until(
      () => receivers.receipts.length >= receivedBeforeKill,
      180_000,
      () =>
        `${receivedBeforeKill} receipts (${receivers.receipts.length} so far): ${service.output().slice(-2000)}`,
    );
    const killedAt = Date.now();
    await service.stop('SIGKILL');
    service = startService(dataDir, postgresUrl);
    await service.waitFor(/REST API/, 60_000);
    const to = Math.max(Date.now(), postgresUrl === undefined ? 0 : killedAt + leaseWallMs) + 1000;
    crashes.push({ from: killedAt - 5000, to });
  }
  if (eventsAfterCrash > 0) {
    // After the slack too, so that none of their retries is judged as due while the restart catches up.
    const closed = (crashes.at(-1)?.to ?? 0) + slackWallMs;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, closed - Date.now())));
    filled = await addToOutbox(location, timeScale, filled, eventsAfterCrash);
  }
  await until(
    () => allFinal(receivers, filled.deliveries, crashes),
    300_000,
    () => `every delivery to end (${receivers.receipts.length} receipts): ${service.output().slice(-2000)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await service.stop('SIGTERM');
  await receivers.close();
  const store = await openStore(location);
  try {
    const deliveries: DeliveryRow[] = [];
    for (const webhook of filled.webhooks) {
      const page = await store.deliveries.list(
        filled.accountId,
        { limit: 10_000 },
        { webhookId: webhook.id },
      );
      deliveries.push(...(page?.items ?? []));
    }
    const anchor = await store.serviceClock.read();
    if (anchor === null) throw new Error('the service clock was never anchored');
    const secrets = new Map(filled.webhooks.map((webhook, index) => [index, webhook.signingSecret]));
    const report = checkChaos({
      deliveries,
      receipts: receivers.receipts,
      secrets,
      anchor,
      crashes,
      slackWallMs,
      recoveryBoundWallMs,
    });
    return report;
  } finally {
    await store.close();
  }
}

function expectPassed(report: ChaosReport, deliveries: number, judgedAtLeast: number): void {
  console.log(`chaos report: ${JSON.stringify(report)}`);
  expect(report.deliveries).toBe(deliveries);
  expect(report.delivered + report.undelivered).toBe(report.deliveries);
  expect(report.notFinal).toBe(0);
  expect(report.lost).toBe(0);
  expect(report.duplicatesOutsideCrash).toBe(0);
  expect(report.retriesEarly).toBe(0);
  expect(report.retriesLate).toBe(0);
  expect(report.retriesJudged).toBeGreaterThanOrEqual(judgedAtLeast);
  expect(report.retriesLateAfterCrash).toBe(0);
  expect(report.signaturesFailed).toBe(0);
  expect(report.attemptsBeyondSchedule).toBe(0);
  // The flaky receiver refuses every attempt of about 1 in 16 of its 500 deliveries: each must end undelivered.
  expect(report.refusedAlways).toBeGreaterThan(0);
  expect(report.refusedAlwaysNotUndelivered).toBe(0);
  expect(report.undelivered).toBeGreaterThanOrEqual(report.refusedAlways);
}

describe.runIf(enabled)('webhook delivery chaos', () => {
  it('embedded store: killed twice during delivery, nothing lost', { timeout: 600_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'chaos-'));
    try {
      const total = webhookCount * eventsPerWebhook;
      const report = await chaosRun({ kind: 'embedded', dataDir: path.join(dataDir, 'database') }, dataDir, [
        Math.floor(total * 0.3),
        Math.floor(total * 0.65),
      ]);
      // The flaky receiver's 500 deliveries make about 600 retries, of which healthy runs judge about half (the two
      // crash windows, each from 5 s before the kill to 1 s after the restart, cover the rest: 325 of 625 in CI, 389
      // of 580 locally). The floor, a quarter of its deliveries, fails when the windows come to cover (nearly) the
      // whole schedule.
      expectPassed(report, total, eventsPerWebhook / 4);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('PostgreSQL: killed during delivery, nothing lost', { timeout: 600_000 }, async (context) => {
    const server = await startPostgresServer();
    if ('unavailable' in server) {
      context.skip(server.unavailable);
      return;
    }
    const dataDir = await mkdtemp(path.join(tmpdir(), 'chaos-pg-'));
    try {
      const total = webhookCount * eventsPerWebhook;
      // The crash window runs until the dead node's leases ran out (about 31 s of the 38 s schedule), so nearly every
      // retry of the first 10 000 spans it (judged: 5 of 657). A second fill once it has closed runs its whole
      // schedule outside it; twice the first, so that most retries are judged (about 1200 of 1800; one the size of the
      // first left 607 of 1227). It adds no time: the run already waits a last delay after the first fill's end, for
      // an attempt a crash may still owe.
      const eventsAfterCrash = 2 * eventsPerWebhook;
      const report = await chaosRun(
        { kind: 'postgres', connectionString: server.connectionString },
        dataDir,
        [Math.floor(total * 0.4)],
        eventsAfterCrash,
      );
      // The second fill's 1000 deliveries to the flaky receiver make about 1200 retries, all outside the crash. The
      // floor, half of those deliveries, fails when they are (mostly) taken as across a crash again.
      expectPassed(report, total + webhookCount * eventsAfterCrash, eventsAfterCrash / 2);
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
