// Bursts against one key's rate-limit window: limit + 1 requests sent concurrently in batches, so they land well inside
// one window, judged by how many were admitted before the 429.
import { routes } from '../../../generated/server/routes.js';
import { errorTypes } from '../../../generated/types/errors.js';
import { apiPolicies } from '../../../generated/types/facts.js';
import { expectThat } from '../../harness/check.js';
import { type Exchange, send } from '../../harness/probe.js';
import { headerOf } from './auth-evidence.js';
import { fitsRule, responseHeader } from './auth-spec.js';

export const windowSeconds = apiPolicies.rateLimit.windowSeconds;
/** A cheap read every key may make. */
export const probeRoute = routes.getAccount;
const limitedStatus = errorTypes.rate_limit_error.status;
const batchSize = 50;

export interface Burst {
  limit: number;
  /** Requests of the window made before the burst (by other checks), as the target's RateLimit fields tell; else 0. */
  earlier: number;
  admitted: Exchange[];
  limited: Exchange[];
  /** Anything else: neither admitted (2xx) nor limited. */
  others: Exchange[];
  elapsedSeconds: number;
}

async function sendBurst(key: string, limit: number): Promise<Burst> {
  const started = performance.now();
  const answers: Exchange[] = [];
  for (let sent = 0; sent < limit + 1; sent += batchSize) {
    const size = Math.min(batchSize, limit + 1 - sent);
    answers.push(
      ...(await Promise.all(
        Array.from({ length: size }, () => send(probeRoute.method, probeRoute.url, { key })),
      )),
    );
  }
  const status = (exchange: Exchange) => exchange.response.status;
  return {
    limit,
    earlier: 0,
    admitted: answers.filter((exchange) => status(exchange) >= 200 && status(exchange) < 300),
    limited: answers.filter((exchange) => status(exchange) === limitedStatus),
    others: answers.filter(
      (exchange) => status(exchange) !== limitedStatus && (status(exchange) < 200 || status(exchange) >= 300),
    ),
    elapsedSeconds: (performance.now() - started) / 1000,
  };
}

/** Retry-After of a 429 as seconds, or null when absent or not an integer. */
export function retryAfterOf(exchange: Exchange): number | null {
  const value = headerOf(exchange, 'Retry-After');
  return value !== undefined && /^[0-9]+$/.test(value) ? Number(value) : null;
}

const [policyName, remainingName] = apiPolicies.rateLimit.window.headers;
const policyRule = responseHeader('TooManyRequests', policyName);
const remainingRule = responseHeader('TooManyRequests', remainingName);

/** A numeric parameter (`q`, `w`, `r`) of a rate-limit field, or NaN. */
export function quotaField(exchange: Exchange, name: string, field: string): number {
  return Number(new RegExp(`;${field}=([0-9]+)`).exec(headerOf(exchange, name) ?? '')?.[1] ?? Number.NaN);
}

/**
 * How many requests of the window came before the burst, from the target's own fields (the spec's RateLimit-Policy
 * and RateLimit): trusted only when every admitted answer carries them with the plan's quota and their remainders are
 * exactly admitted - 1 down to 0, one each, so the target admitted precisely what it said was left.
 */
function earlierFromFields(burst: Burst): number | null {
  const described = burst.admitted.every(
    (exchange) =>
      fitsRule(policyRule, headerOf(exchange, policyRule.name)) &&
      fitsRule(remainingRule, headerOf(exchange, remainingRule.name)) &&
      quotaField(exchange, policyRule.name, 'q') === burst.limit,
  );
  if (!described || burst.admitted.length === 0) return null;
  const remainders = burst.admitted.map((exchange) => quotaField(exchange, remainingRule.name, 'r'));
  const sorted = [...remainders].sort((left, right) => left - right);
  if (!sorted.every((value, index) => value === index)) return null;
  return burst.limit - burst.admitted.length;
}

/** What may still be tried before a burst is judged: one burst again at once, one wait for a window. */
export interface BurstAllowance {
  /** A burst again at once, after one in which nothing was refused. */
  again: boolean;
  /** A wait for the window to end, then a burst in a window of its own. */
  wait: boolean;
  /** This burst came straight after one in which nothing was refused: its window opened during that burst. */
  afterAllAdmitted: boolean;
}

export type BurstStep = { next: 'judge' } | { next: 'again' } | { next: 'wait'; seconds: number };

/**
 * What to do after a burst: judge it (failing with evidence when it breaks the limit), send another at once, or wait
 * out the window and send another. Sets `burst.earlier` when the target's fields account for earlier requests.
 *
 * A fixed window opened by earlier checks may end in the middle of even a short burst: the requests before the
 * rollover fill the old window's rest and those after it open a new one, so all may be admitted. A window rolls over
 * at most once in its length, so a second burst at once must meet a refusal; a target that never refuses fails it.
 */
export function stepAfterBurst(burst: Burst, allowance: BurstAllowance): BurstStep {
  const { limit } = burst;
  expectThat(
    burst.others.length === 0,
    `only 2xx or ${limitedStatus} answers in a burst of ${limit + 1} (${burst.others.length} others)`,
    burst.others[0] ?? null,
  );
  const firstLimited = burst.limited[0];
  if (firstLimited === undefined) {
    if (allowance.again) return { next: 'again' };
    expectThat(
      false,
      `a ${limitedStatus} among ${limit + 1} requests sent within ${burst.elapsedSeconds.toFixed(1)} s (window ${windowSeconds} s), and again in a second burst at once; all were admitted`,
      burst.admitted.at(-1) ?? null,
    );
  }
  const retryAfter = retryAfterOf(firstLimited);
  const wait =
    retryAfter !== null && allowance.wait ? { next: 'wait' as const, seconds: retryAfter + 1 } : null;
  const openedBefore =
    allowance.afterAllAdmitted ||
    (retryAfter !== null && retryAfter < windowSeconds - Math.ceil(burst.elapsedSeconds) - 1);
  if (burst.admitted.length < limit) {
    // The window held earlier requests (another check's, an earlier burst's, or before the run): the target's fields
    // may count them; else wait for a window of the burst's own.
    const earlier = earlierFromFields(burst);
    if (earlier !== null) burst.earlier = earlier;
    else if (openedBefore && wait !== null) return wait;
  }
  // More admitted than the limit: a window rolled over mid-burst; wait for one of our own.
  if (burst.admitted.length > limit && wait !== null) return wait;
  const counted = burst.earlier + burst.admitted.length;
  expectThat(
    counted === limit,
    `exactly ${limit} admitted in the window and the rest, from the ${limit + 1}th on, refused with ${limitedStatus}; got ${burst.admitted.length} admitted${burst.earlier > 0 ? ` after ${burst.earlier} earlier requests of the window` : ''}, ${burst.limited.length} refused`,
    firstLimited,
  );
  return { next: 'judge' };
}

/**
 * The (limit + 1)th request of a window must be the first refused: bursts until one can be judged (stepAfterBurst),
 * at most three, with at most one wait for a window. Fails with evidence otherwise.
 */
export async function burstPastLimit(key: string, limit: number): Promise<Burst> {
  const allowance: BurstAllowance = { again: true, wait: true, afterAllAdmitted: false };
  for (;;) {
    const burst = await sendBurst(key, limit);
    const step = stepAfterBurst(burst, allowance);
    if (step.next === 'judge') return burst;
    allowance.afterAllAdmitted = step.next === 'again';
    if (step.next === 'again') allowance.again = false;
    else {
      allowance.wait = false;
      await new Promise((resolve) => setTimeout(resolve, step.seconds * 1000));
    }
  }
}

/** Long enough for three bursts and one wait for a window. */
export const burstTimeout = (windowSeconds * 2 + 30) * 1000;
