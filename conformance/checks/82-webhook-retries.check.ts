// The retry schedule measured at a receiver that fails on purpose: the gaps between attempts against the schedule
// on the target's clock (±5% and a stated slack), exactly `retries` retries, then `undelivered`; a 3xx is a failure,
// a 2xx ends the retries, an answer after the timeout is retried. Runs on the fast-clock twin of the embedded default.
import { describe } from 'vitest';
import { apiPolicies } from '../../generated/types/facts.js';
import { validateWebhookDelivery } from '../../generated/validators/index.js';
import { signWebhook } from '../../generated/webhooks/index.js';
import { type CheckContext, check, expectWith } from '../harness/check.js';
import { send } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import type { Behaviour } from '../harness/webhook-receiver.js';
import type { Clock } from './support/data-plane.js';
import { readSignature } from './support/signature.js';
import { type ParsedDelivery, type RegisteredWebhook, useReceiver } from './support/webhooks.js';

const policy = apiPolicies.webhookDelivery;
const hooks = useReceiver();
/** A gap may differ from its delay by this share of it... */
const relativeTolerance = 0.05;
/**
 * ...plus this much wall-clock time, stated in the report: each gap carries the target's own work between attempts
 * (recording the outcome, claiming the retry, sending) and the receiver's scheduling, which on a loaded machine took
 * up to 0.7 s for one gap (load average 20); a stretched or missing retry is seconds off at the fast clock's scale.
 */
const slackMilliseconds = 1500;
/**
 * The receiver timeout's own wall-clock slack: a timer that long is often coarse (undici checks its timeouts once a
 * second) and both the target's and this receiver's event loops lag on a loaded machine; a broken variant's run at
 * load 10 saw 19.1 s for a 15 s timeout. 5 s still fails a target that waits twice the timeout or never gives up.
 */
const timeoutSlackMilliseconds = 5000;
/** Without --slow, waits longer than this on the wall clock are skipped with the reason. */
const quickWaitMilliseconds = 30_000;
const slowWaitMilliseconds = 7 * 60_000;
/** The longest wait for a scenario's first attempt, within the checks' own 120 s timeout. */
const firstAttemptWaitMilliseconds = 30_000;

function schedule(): { clock: Clock; scale: number } {
  const target = currentTarget();
  return target.fastClock === null
    ? { clock: 'target', scale: target.timeScale }
    : { clock: 'fast', scale: target.fastClock.timeScale };
}

/** How many retries can be waited out: all at a high scale, the first two with --slow at scale 1. */
function retriesWithinReach(scale: number): number {
  const limit = currentTarget().slow ? slowWaitMilliseconds : quickWaitMilliseconds;
  let total = 0;
  return policy.retryDelaysSeconds.filter((delay) => {
    total += (delay * 1000) / scale;
    return total <= limit;
  }).length;
}

interface Scenario {
  webhook: RegisteredWebhook;
  deliveries: ParsedDelivery[];
  requestedAt: number;
}

/** What a scenario waits for: enough attempts at the receiver, or the delivery's listed status. */
interface Until {
  /** Enough attempts arrived: the scenario ends at once. */
  attempts?: (deliveries: ParsedDelivery[]) => boolean;
  /** The listed status that ends the scenario (after `graceMs`, for an attempt still on its way). */
  listed?: 'delivered' | 'undelivered' | Array<'delivered' | 'undelivered'>;
  /** Bound on the whole wait: reached only by a target that misbehaves. */
  timeoutMs: number;
}

/** How often the deliveries API is asked for the status while a scenario waits, in wall-clock milliseconds. */
const statusPollMs = 100;
/** After the status says the delivery is over, attempts still on the wire get this long to arrive. */
const graceMs = 1000;

const scenarios = new Map<string, Promise<Scenario>>();

function serverOf(clock: Clock): 'fast' | 'api' {
  return clock === 'fast' ? 'fast' : 'api';
}

/** The status GET /webhooks/{id}/deliveries lists for the webhook's only delivery, or null before it is listed. */
async function listedStatus(webhook: RegisteredWebhook): Promise<string | null> {
  const listed = await send('GET', `/webhooks/${webhook.id}/deliveries`, { server: serverOf(webhook.clock) });
  const [delivery] = (listed.response.body as { data?: Array<{ status?: string }> } | undefined)?.data ?? [];
  return delivery?.status ?? null;
}

/**
 * Waits for the event rather than a fixed time: until the attempts satisfy `until.attempts`, or the listed status
 * is one of `until.listed` (then `graceMs` more), or `until.timeoutMs` passed.
 */
async function watch(
  context: CheckContext,
  webhook: RegisteredWebhook,
  until: Until,
): Promise<ParsedDelivery[]> {
  const deadline = Date.now() + until.timeoutMs;
  const finals = until.listed === undefined ? [] : [until.listed].flat();
  let ended = false;
  const polling = (async () => {
    while (!ended && finals.length > 0 && Date.now() < deadline) {
      const status = await listedStatus(webhook);
      if (status !== null && (finals as string[]).includes(status)) {
        await new Promise((resolve) => setTimeout(resolve, graceMs));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, statusPollMs));
    }
    if (finals.length === 0) await new Promise<void>(() => {});
  })();
  const attempts = hooks.waitFor(context, webhook, until.attempts ?? (() => false), until.timeoutMs);
  await Promise.race([polling, attempts]);
  ended = true;
  return hooks.deliveries(context, webhook);
}

/** A webhook answering with `behaviour`, sent one test event, watched until `until` holds or the time runs out. */
function scenario(
  context: CheckContext,
  name: string,
  behaviour: Behaviour,
  until: Until,
): Promise<Scenario> {
  const existing = scenarios.get(name);
  if (existing !== undefined) return existing;
  const started = (async () => {
    const { clock } = schedule();
    const webhook = await hooks.register(context, name, { events: ['webhook.test'], behaviour, clock });
    const requestedAt = Date.now();
    const requested = await send('POST', `/webhooks/${webhook.id}/test`, { server: serverOf(clock) });
    expectWith(requested.response.status === 201, 'status 201 for POST /webhooks/{id}/test', requested);
    // The wait is counted from the first attempt: how soon that comes is no part of these checks, and on a loaded
    // machine it took longer than a whole window, so "no attempt after the 204" was judged on no attempt at all.
    await hooks.waitFor(context, webhook, (found) => found.length > 0, firstAttemptWaitMilliseconds);
    const deliveries = await watch(context, webhook, until);
    return { webhook, deliveries, requestedAt };
  })();
  scenarios.set(name, started);
  return started;
}

/** Wall-clock milliseconds the first `count` retry delays take at `scale`. */
function delaysMs(count: number, scale: number): number {
  return policy.retryDelaysSeconds.slice(0, count).reduce((sum, delay) => sum + (delay * 1000) / scale, 0);
}

/**
 * The schedule scenario: every attempt fails with 500. With every retry in reach it ends when the delivery is listed
 * undelivered (a target with a retry too many sends it first; one with a retry too few lists undelivered early);
 * with some in reach, when they have arrived. The bound is twice the schedule plus 15 s.
 */
function failingScenario(context: CheckContext): Promise<Scenario> {
  const { scale } = schedule();
  const reach = retriesWithinReach(scale);
  const all = reach === policy.retries;
  return scenario(context, 'always-500', () => ({ status: 500 }), {
    attempts: (found) => found.length > (all ? policy.retries + 1 : reach),
    ...(all ? { listed: 'undelivered' as const } : {}),
    timeoutMs: delaysMs(reach, scale) * 2 + 15_000,
  });
}

function gapsOf(deliveries: ParsedDelivery[]): number[] {
  return deliveries
    .slice(1)
    .map((delivery, index) => delivery.arrivedAt - (deliveries[index]?.arrivedAt ?? 0));
}

const retryDelayIds = policy.retryDelaysSeconds.map(
  (_, index) => `RULE-WEBHOOK-DELIVERY-RETRY-DELAYS-SECONDS-${index}`,
);

describe.concurrent('webhook retries', () => {
  policy.retryDelaysSeconds.forEach((delaySeconds, index) => {
    check(
      ['EVT-RETRY-SCHEDULE', retryDelayIds[index] as string],
      `retry ${index + 1} comes ${delaySeconds} s (target clock) after attempt ${index + 1}, within ±${relativeTolerance * 100}% + ${slackMilliseconds} ms wall`,
      async (context) => {
        const { scale } = schedule();
        if (index >= retriesWithinReach(scale))
          context.skip(
            `retry ${index + 1} comes ${(policy.retryDelaysSeconds.slice(0, index + 1).reduce((a, b) => a + b, 0) / scale / 60).toFixed(1)} min of wall time after the first attempt at time scale ${scale}${currentTarget().slow ? '' : ' (--slow waits out the first two at scale 1)'}`,
          );
        const { deliveries } = await failingScenario(context);
        const gaps = gapsOf(deliveries);
        const expectedMs = (delaySeconds * 1000) / scale;
        const allowedMs = expectedMs * relativeTolerance + slackMilliseconds;
        context.evidence('timeline', {
          kind: 'timeline',
          scale,
          schedule: policy.retryDelaysSeconds,
          attempts: deliveries.map((each) => ({ at: each.arrivedAt, answer: each.answer })),
        });
        const gap = gaps[index];
        expectWith(gap !== undefined, `retry ${index + 1} to arrive`, { attempts: deliveries.length, gaps });
        expectWith(
          Math.abs(gap - expectedMs) <= allowedMs,
          `a gap of ${expectedMs.toFixed(1)} ms ± ${allowedMs.toFixed(1)} ms, not ${gap} ms (${((gap * scale) / 1000).toFixed(0)} s on the target clock)`,
          gaps,
        );
      },
      { timeout: 120_000 },
    );
  });

  check(
    [
      'LIM-WEBHOOK-RETRIES',
      'RULE-WEBHOOK-DELIVERY-RETRIES',
      'EVT-RETRY-UNDELIVERED',
      'RULE-WEBHOOK-DELIVERY-AFTER-LAST-RETRY',
      'INF-SCHEMAS-WEBHOOK-DELIVERY',
      'INF-SCHEMAS-WEBHOOK-DELIVERY-PROPERTIES-ATTEMPTS-ITEMS-PROPERTIES-DURATIONMS',
    ],
    `exactly ${policy.retries} retries, then the delivery is undelivered in GET /webhooks/{id}/deliveries with every attempt`,
    async (context) => {
      const { scale, clock } = schedule();
      if (retriesWithinReach(scale) < policy.retries)
        context.skip(
          `all ${policy.retries} retries take ${(policy.retryDelaysSeconds.reduce((a, b) => a + b, 0) / scale / 3600).toFixed(1)} h at time scale ${scale}`,
        );
      const { webhook, deliveries } = await failingScenario(context);
      const listed = await send('GET', `/webhooks/${webhook.id}/deliveries`, {
        server: clock === 'fast' ? 'fast' : 'api',
      });
      const [delivery] = (listed.response.body as { data?: Array<Record<string, unknown>> }).data ?? [];
      context.evidence(
        'attempts received',
        deliveries.map((each) => ({ at: each.arrivedAt, answer: each.answer })),
      );
      context.evidence('delivery listed', delivery);
      expectWith(
        deliveries.length === policy.retries + 1,
        `${policy.retries + 1} attempts in all`,
        deliveries.length,
      );
      expectWith(validateWebhookDelivery(delivery).ok, 'a valid WebhookDelivery', delivery);
      expectWith(delivery?.status === 'undelivered', 'status undelivered', delivery);
      expectWith(
        (delivery?.attempts as unknown[] | undefined)?.length === policy.retries + 1,
        'every attempt listed',
        delivery,
      );
      expectWith(delivery?.nextAttemptAt === null, 'no next attempt', delivery);
    },
    { timeout: 120_000 },
  );

  check(
    ['EVT-SIGNATURE-TOLERANCE', 'RULE-WEBHOOK-DELIVERY-SIGNATURE-TOLERANCE-SECONDS'],
    'every retry is signed anew: its t follows the target clock from the first attempt',
    async (context) => {
      const { scale } = schedule();
      if (retriesWithinReach(scale) < 1)
        context.skip(`the first retry comes after ${policy.retryDelaysSeconds[0]} s at time scale ${scale}`);
      const { deliveries, webhook } = await failingScenario(context);
      const [first] = deliveries;
      expectWith(
        first !== undefined && deliveries.length > 1,
        'a first attempt and a retry',
        deliveries.length,
      );
      const firstT = Number(readSignature(first, webhook.signingSecret, 0).timestamps[0]);
      const offsets = deliveries.map((each) => {
        const t = Number(readSignature(each, webhook.signingSecret, 0).timestamps[0]);
        return t - (firstT + ((each.arrivedAt - first.arrivedAt) * scale) / 1000);
      });
      const allowed = policy.signature.toleranceSeconds + (slackMilliseconds * scale) / 1000;
      context.evidence('t minus the expected target time (s)', offsets);
      expectWith(
        offsets.every((offset) => Math.abs(offset) <= allowed),
        `every t within ${allowed} s`,
        offsets,
      );
    },
    { timeout: 120_000 },
  );

  check(
    ['RULE-WEBHOOK-DELIVERY-RECEIVER-REDIRECTS'],
    'a 3xx answer is a failure: retried on the schedule, the Location never followed',
    async (context) => {
      const { scale } = schedule();
      if (retriesWithinReach(scale) < 1)
        context.skip(`the first retry comes after ${policy.retryDelaysSeconds[0]} s at time scale ${scale}`);
      const elsewhere = hooks.receiver(context).route('redirect-target');
      // A retry, or a status that says the 302 ended the delivery: either ends the wait.
      const { deliveries } = await scenario(
        context,
        'redirect',
        () => ({ status: 302, location: elsewhere.url }),
        {
          attempts: (found) => found.length >= 2,
          listed: ['delivered', 'undelivered'],
          timeoutMs: delaysMs(1, scale) * 2 + 10_000,
        },
      );
      const followed = hooks.receiver(context).deliveries(elsewhere.route).length;
      context.evidence('attempts', {
        attempts: deliveries.map((each) => ({ at: each.arrivedAt, answer: each.answer })),
        followed,
      });
      expectWith(deliveries.length >= 2, 'a retry after the 302', deliveries.length);
      expectWith(followed === 0, 'the redirect not followed', followed);
    },
    { timeout: 120_000 },
  );

  check(
    ['RULE-WEBHOOK-DELIVERY-RECEIVER-SUCCESS'],
    'a 2xx ends the retries and the delivery is delivered',
    async (context) => {
      const { scale, clock } = schedule();
      if (retriesWithinReach(scale) < 2)
        context.skip(`two retries do not fit the wait at time scale ${scale}`);
      // Over when listed delivered (a third attempt would come before the grace ends) or a third attempt came.
      const { webhook, deliveries } = await scenario(
        context,
        'fail-then-204',
        (attempt) => ({ status: attempt === 1 ? 503 : 204 }),
        {
          attempts: (found) => found.length >= 3,
          listed: ['delivered', 'undelivered'],
          timeoutMs: delaysMs(2, scale) * 2 + 10_000,
        },
      );
      const listed = await send('GET', `/webhooks/${webhook.id}/deliveries`, {
        server: clock === 'fast' ? 'fast' : 'api',
      });
      const [delivery] = (listed.response.body as { data?: Array<Record<string, unknown>> }).data ?? [];
      context.evidence(
        'attempts',
        deliveries.map((each) => ({ at: each.arrivedAt, answer: each.answer })),
      );
      context.evidence('delivery listed', delivery);
      expectWith(deliveries.length === 2, 'no attempt after the 204', deliveries.length);
      expectWith(delivery?.status === 'delivered', 'status delivered', delivery);
    },
    { timeout: 120_000 },
  );

  check(
    ['RULE-WEBHOOK-DELIVERY-RECEIVER-TIMEOUT-SECONDS'],
    `a receiver that does not answer within ${policy.receiver.timeoutSeconds} s is given up on and retried`,
    async (context) => {
      const { scale } = schedule();
      if (retriesWithinReach(scale) < 1)
        context.skip(`the first retry comes after ${policy.retryDelaysSeconds[0]} s at time scale ${scale}`);
      const timeoutMs = policy.receiver.timeoutSeconds * 1000;
      const { deliveries } = await scenario(
        context,
        'hang-then-200',
        (attempt) => (attempt === 1 ? 'hang' : { status: 200 }),
        {
          attempts: (found) => found.length >= 2,
          timeoutMs: timeoutMs * (1 + relativeTolerance) + delaysMs(1, scale) * 2 + 10_000,
        },
      );
      const [first] = deliveries;
      const gaveUpAfter =
        first?.closedAt === null || first === undefined ? null : first.closedAt - first.arrivedAt;
      context.evidence(
        'attempts',
        deliveries.map((each) => ({ at: each.arrivedAt, answer: each.answer, closedAt: each.closedAt })),
      );
      expectWith(gaveUpAfter !== null, 'the service to close the unanswered request', gaveUpAfter);
      // The timeout may follow the wall clock or the target's: neither earlier than the scaled one nor later than the wall one.
      const earliest = (timeoutMs / scale) * (1 - relativeTolerance) - slackMilliseconds;
      const latest = timeoutMs * (1 + relativeTolerance) + timeoutSlackMilliseconds;
      expectWith(
        gaveUpAfter >= earliest && gaveUpAfter <= latest,
        `given up after ${policy.receiver.timeoutSeconds} s`,
        gaveUpAfter,
      );
      expectWith(deliveries.length >= 2, 'a retry after the timeout', deliveries.length);
    },
    { timeout: 120_000 },
  );

  check(
    [
      'RULE-WEBHOOK-DELIVERY-IDEMPOTENCY-HEADER',
      'RULE-WEBHOOK-DELIVERY-IDEMPOTENCY-VALUE',
      'INF-SCHEMAS-WEBHOOK-DELIVERY-HEADERS-PROPERTIES-SERVICE-DELIVERY-ID',
    ],
    `every attempt of one delivery carries ${policy.idempotency.header}: the delivery's id, the same each time`,
    async (context) => {
      const { clock } = schedule();
      const { webhook, deliveries } = await failingScenario(context);
      const header = policy.idempotency.header.toLowerCase();
      const values = deliveries.map((each) => each.headers[header]);
      const listed = await send('GET', `/webhooks/${webhook.id}/deliveries`, {
        server: clock === 'fast' ? 'fast' : 'api',
      });
      const [delivery] = (listed.response.body as { data?: Array<{ id?: string }> }).data ?? [];
      context.evidence('header values', { values, listed: delivery?.id });
      expectWith(
        values.length > 0 && values.every((value) => value === delivery?.id),
        `${policy.idempotency.header} = the listed delivery id on every attempt`,
        { values, id: delivery?.id },
      );
    },
    { timeout: 120_000 },
  );

  check(
    ['RULE-WEBHOOK-DELIVERY-SECRET-ROTATION-DURING', 'RULE-WEBHOOK-DELIVERY-SECRET-ROTATION-OVERLAP-SECONDS'],
    `after a roll, deliveries carry a v1 for the new secret first and the old one second, for ${policy.secretRotation.overlapSeconds} s`,
    async (context) => {
      const { clock, scale } = schedule();
      const overlapMs = (policy.secretRotation.overlapSeconds * 1000) / scale;
      if (overlapMs > quickWaitMilliseconds && !currentTarget().slow)
        context.skip(
          `the overlap lasts ${(overlapMs / 3_600_000).toFixed(1)} h of wall time at time scale ${scale}`,
        );
      const server = clock === 'fast' ? ('fast' as const) : ('api' as const);
      const webhook = await hooks.register(context, 'rotation', { events: ['webhook.test'], clock });
      const rolled = await send('POST', `/webhooks/${webhook.id}/roll-secret`, { server });
      const newSecret = String((rolled.response.body as { signingSecret?: unknown }).signingSecret);
      await send('POST', `/webhooks/${webhook.id}/test`, { server });
      const [during] = await hooks.waitFor(context, webhook, (found) => found.length >= 1, 10_000);
      await new Promise((resolve) => setTimeout(resolve, overlapMs + 1000));
      await send('POST', `/webhooks/${webhook.id}/test`, { server });
      const found = await hooks.waitFor(context, webhook, (each) => each.length >= 2, 10_000);
      const after = found[1];
      const v1Of = (delivery: ParsedDelivery | undefined, secret: string) =>
        delivery === undefined ? [] : readSignature(delivery, secret, 0).v1;
      const signedBy = (delivery: ParsedDelivery | undefined, secret: string) => {
        if (delivery === undefined) return false;
        const t = Number(readSignature(delivery, secret, 0).timestamps[0]);
        return readSignature(delivery, secret, t).verifierError === null;
      };
      const evidence = {
        rolled: rolled.response.status,
        during: v1Of(during, newSecret).length,
        after: v1Of(after, newSecret).length,
      };
      context.evidence('rotation', evidence);
      expectWith(rolled.response.status === 200, 'status 200 for the roll', rolled);
      expectWith(v1Of(during, newSecret).length === 2, 'two v1 during the overlap', evidence);
      expectWith(
        signedBy(during, newSecret) && signedBy(during, webhook.signingSecret),
        'one v1 per secret',
        evidence,
      );
      const t = Number(during === undefined ? 0 : readSignature(during, newSecret, 0).timestamps[0]);
      const expectedFirst = /v1=([0-9a-f]+)/.exec(signWebhook(during?.rawBody ?? '', newSecret, t))?.[1];
      expectWith(v1Of(during, newSecret)[0] === expectedFirst, "the new secret's v1 first", evidence);
      expectWith(
        v1Of(after, newSecret).length === 1 && signedBy(after, newSecret),
        'after the overlap one v1, the new secret',
        evidence,
      );
    },
    { timeout: 120_000 },
  );
});
