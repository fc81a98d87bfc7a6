// Named 9x to run last: the bursts exhaust the free key and the primary paid key for a window.
import { describe } from 'vitest';
import { errorRoles } from '../../generated/types/errors.js';
import { accountPlanMembers, apiPolicies } from '../../generated/types/facts.js';
import { check, expectThat } from '../harness/check.js';
import { send } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import {
  type ErrorCode,
  errorLabel,
  hasErrorType,
  hasStatusAndCode,
  headerOf,
  statusAndCode,
  statusAndType,
} from './support/auth-evidence.js';
import { once } from './support/auth-operations.js';
import {
  type Burst,
  burstPastLimit,
  burstTimeout,
  probeRoute,
  quotaField,
  retryAfterOf,
  windowSeconds,
} from './support/auth-rate-limit.js';
import { fitsRule, responseHeader } from './support/auth-spec.js';

const limitedCode: ErrorCode = errorRoles.rateLimited;
const plans = accountPlanMembers;
const noFreeKey = 'the target names no free-plan secret key (--free-key)';
const noPaidKey = 'the target names no paid secret key (--paid-key)';

// One burst per key, shared by the documented checks and the inferred ones that read its answers.
const freeBurst = once(async () => {
  const key = currentTarget().keys.freeSecret;
  return key === null ? null : burstPastLimit(key, plans.free.requestsPerMinute);
});
const paidBurst = once(async () => {
  // The primary paid key: general checks spread over the extra keys, so its window is untouched.
  const key = currentTarget().keys.paidSecret;
  return key === null ? null : burstPastLimit(key, plans.paid.requestsPerMinute);
});

/** The documented part of a refusal: 429 rate_limit_error with Retry-After in whole seconds within one window. */
function expectDocumentedRefusal(burst: Burst): void {
  const refusal = burst.limited[0] ?? null;
  expectThat(
    refusal !== null && hasErrorType(refusal, limitedCode),
    `the ${burst.limit + 1}th request refused with ${statusAndType(limitedCode)}`,
    refusal,
  );
  const retryAfter = responseHeader('TooManyRequests', 'Retry-After');
  const seconds = retryAfterOf(refusal);
  expectThat(
    fitsRule(retryAfter, headerOf(refusal, retryAfter.name)) && seconds !== null && seconds <= windowSeconds,
    `${retryAfter.name} in whole seconds, at most the ${windowSeconds} s window`,
    refusal,
  );
}

describe('rate limits', () => {
  check(
    ['LIM-RATE-FREE', 'LIM-RATE-EXCEEDED', 'ERR-429'],
    `a free-plan key gets ${plans.free.requestsPerMinute} requests per ${windowSeconds} s; the next is 429 rate_limit_error with Retry-After`,
    async ({ skip }) => {
      const burst = await freeBurst();
      if (burst === null) return skip(noFreeKey);
      expectDocumentedRefusal(burst);
    },
    burstTimeout,
  );

  check(
    ['LIM-RATE-PAID', 'LIM-RATE-EXCEEDED', 'ERR-429'],
    `a paid-plan key gets ${plans.paid.requestsPerMinute} requests per ${windowSeconds} s; the next is 429 rate_limit_error with Retry-After`,
    async ({ skip }) => {
      const burst = await paidBurst();
      if (burst === null) return skip(noPaidKey);
      expectDocumentedRefusal(burst);
    },
    burstTimeout,
  );
});

describe('rate limits (inferred details)', () => {
  check(
    ['INF-OPENAPI-X-RATE-LIMIT-WINDOW'],
    'each credential has its own window: another key of the exhausted account is admitted right after, the exhausted one is not',
    async ({ skip }) => {
      const { keys } = currentTarget();
      const other = keys.publishable ?? keys.paidSecretExtras[0] ?? null;
      if (other === null)
        return skip('the target names no second key of the paid account (--publishable-key)');
      const burst = await paidBurst();
      if (burst === null) return skip(noPaidKey);
      const [unaffected, stillLimited] = await Promise.all([
        send(probeRoute.method, probeRoute.url, { key: other }),
        send(probeRoute.method, probeRoute.url, { key: keys.paidSecret }),
      ]);
      expectThat(
        unaffected.response.status === 200,
        'status 200 for another key of the same account',
        unaffected,
      );
      expectThat(
        hasStatusAndCode(stillLimited, limitedCode),
        `${statusAndCode(limitedCode)} again for the exhausted key inside its window`,
        stillLimited,
      );
    },
    burstTimeout,
  );

  check(
    ['INF-SCHEMAS-ERROR-CODE-ONEOF-RATE_LIMITED'],
    `a refused request is ${limitedCode}`,
    async ({ skip }) => {
      const bursts = [await freeBurst(), await paidBurst()].filter((burst): burst is Burst => burst !== null);
      if (bursts.length === 0) return skip(`${noFreeKey}; ${noPaidKey}`);
      for (const burst of bursts) {
        const refusal = burst.limited[0] ?? null;
        expectThat(
          refusal !== null && hasStatusAndCode(refusal, limitedCode) && hasErrorType(refusal, limitedCode),
          errorLabel(limitedCode),
          refusal,
        );
      }
    },
    burstTimeout,
  );

  check(
    ['INF-OPENAPI-COMPONENTS-HEADERS-RATELIMITPOLICY', 'INF-OPENAPI-COMPONENTS-HEADERS-RATELIMIT'],
    'admitted and refused answers carry RateLimit-Policy (the plan’s quota and window) and RateLimit (nothing left once refused)',
    async ({ skip }) => {
      const bursts = [await freeBurst(), await paidBurst()].filter((burst): burst is Burst => burst !== null);
      if (bursts.length === 0) return skip(`${noFreeKey}; ${noPaidKey}`);
      const [policyName, remainingName] = apiPolicies.rateLimit.window.headers;
      const policy = responseHeader('TooManyRequests', policyName);
      const remaining = responseHeader('TooManyRequests', remainingName);
      for (const burst of bursts) {
        for (const exchange of [...burst.admitted, ...burst.limited]) {
          expectThat(
            fitsRule(policy, headerOf(exchange, policy.name)) &&
              fitsRule(remaining, headerOf(exchange, remaining.name)),
            `${policy.name} matching ${policy.pattern} and ${remaining.name} matching ${remaining.pattern}`,
            exchange,
          );
          expectThat(
            quotaField(exchange, policy.name, 'q') === burst.limit &&
              quotaField(exchange, policy.name, 'w') === windowSeconds,
            `${policy.name} with q=${burst.limit} and w=${windowSeconds}`,
            exchange,
          );
        }
        const refusal = burst.limited[0] ?? null;
        expectThat(
          refusal !== null && quotaField(refusal, remaining.name, 'r') === 0,
          `${remaining.name} with r=0 on the refusal`,
          refusal,
        );
      }
    },
    burstTimeout,
  );
});
