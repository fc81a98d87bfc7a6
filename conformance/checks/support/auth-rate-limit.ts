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

/**
 * The (limit + 1)th request of a window must be the first refused. A key whose window already held requests when the
 * burst began is judged with the earlier requests the target's RateLimit fields account for, or, without them and
 * when Retry-After shows the window opened before the burst, waited out and burst again, once; so is a burst that
 * outlasted a window. Fails with evidence otherwise.
 */
export async function burstPastLimit(key: string, limit: number): Promise<Burst> {
  for (let attempt = 1; ; attempt += 1) {
    const burst = await sendBurst(key, limit);
    const last = attempt === 2;
    expectThat(
      burst.others.length === 0,
      `only 2xx or ${limitedStatus} answers in a burst of ${limit + 1} (${burst.others.length} others)`,
      burst.others[0] ?? null,
    );
    const firstLimited = burst.limited[0];
    if (firstLimited === undefined) {
      // A window may roll over during a burst that outlasts it; inside one window this is a failure.
      if (!last && burst.elapsedSeconds >= windowSeconds) continue;
      expectThat(
        false,
        `a ${limitedStatus} among ${limit + 1} requests sent within ${burst.elapsedSeconds.toFixed(1)} s (window ${windowSeconds} s); all were admitted`,
        burst.admitted.at(-1) ?? null,
      );
    }
    const retryAfter = retryAfterOf(firstLimited);
    const openedBefore =
      retryAfter !== null && retryAfter < windowSeconds - Math.ceil(burst.elapsedSeconds) - 1;
    if (burst.admitted.length < limit) {
      // The window held earlier requests (another check's, or before the run): the target's fields may count them.
      const earlier = earlierFromFields(burst);
      if (earlier !== null) burst.earlier = earlier;
      else if (openedBefore && !last) {
        await new Promise((resolve) => setTimeout(resolve, (retryAfter + 1) * 1000));
        continue;
      }
    }
    // More admitted than the limit: a window rolled over mid-burst; wait for one of our own.
    if (burst.admitted.length > limit && retryAfter !== null && !last) {
      await new Promise((resolve) => setTimeout(resolve, (retryAfter + 1) * 1000));
      continue;
    }
    const counted = burst.earlier + burst.admitted.length;
    expectThat(
      counted === limit,
      `exactly ${limit} admitted in the window and the rest, from the ${limit + 1}th on, refused with ${limitedStatus}; got ${burst.admitted.length} admitted${burst.earlier > 0 ? ` after ${burst.earlier} earlier requests of the window` : ''}, ${burst.limited.length} refused`,
      firstLimited,
    );
    return burst;
  }
}

/** Long enough for two bursts and one wait for a window. */
export const burstTimeout = (windowSeconds * 2 + 30) * 1000;
