// The per-credential fixed window of the spec's x-rate-limit, driven by the manual clock.
import { describe, expect, it } from 'vitest';
import { accountPlanMembers, apiPolicies } from '../../generated/types/facts.js';
import type { Plan } from '../seed.js';
import { restCaller } from '../testing/account-resources.js';
import type { Reply } from '../testing/call-operation.js';
import { expectProblem } from '../testing/expect-problem.js';
import { useServiceFixture } from '../testing/service-fixture.js';
import { headerPattern } from '../testing/spec-document.js';

const fixture = useServiceFixture();
const { windowSeconds } = apiPolicies.rateLimit;
const policyPattern = headerPattern('RateLimitPolicy');
const remainingPattern = headerPattern('RateLimit');

const header = (reply: Reply, name: string) => String(reply.headers[name.toLowerCase()] ?? '');
const numberAfter = (text: string, key: string) => Number(new RegExp(`;${key}=([0-9]+)`).exec(text)?.[1]);

describe('rate limits', () => {
  const plans = Object.entries(accountPlanMembers).map(
    ([plan, { requestsPerMinute }]): [string, { given: Plan; want: number }] => [
      plan,
      { given: plan as Plan, want: requestsPerMinute },
    ],
  );

  it.each(plans)(
    'a %s key gets its plan’s requests per window, then 429 until the window ends',
    async (_name, { given, want }) => {
      const service = fixture();
      const call = restCaller(service);
      const account = await service.createAccount(given);
      const bystander = await service.createAccount(given);
      const token = account.keys.secret.key;
      const replies: Reply[] = [];
      for (let index = 0; index < want; index += 1) replies.push(await call('getAccount', { token }));
      expect(replies.filter((reply) => reply.status !== 200)).toEqual([]);
      const first = replies[0] as Reply;
      expect(header(first, 'RateLimit-Policy')).toMatch(policyPattern);
      expect(numberAfter(header(first, 'RateLimit-Policy'), 'q')).toBe(want);
      expect(numberAfter(header(first, 'RateLimit-Policy'), 'w')).toBe(windowSeconds);
      expect(header(first, 'RateLimit')).toMatch(remainingPattern);
      expect(numberAfter(header(first, 'RateLimit'), 'r')).toBe(want - 1);

      service.clock.advance(1000);
      const limited = await call('getAccount', { token });
      expectProblem(limited, 'rate_limited');
      expect(header(limited, 'Retry-After')).toMatch(/^[0-9]+$/);
      expect(Number(header(limited, 'Retry-After'))).toBe(windowSeconds - 1);
      expect(header(limited, 'RateLimit-Policy')).toMatch(policyPattern);
      expect(header(limited, 'RateLimit')).toMatch(remainingPattern);
      expect(numberAfter(header(limited, 'RateLimit'), 'r')).toBe(0);

      // Each credential has its own window: another key of the account and another account's key still pass.
      expect((await call('getAccount', { token: account.keys.publishable.key })).status).toBe(200);
      expect((await call('getAccount', { token: bystander.keys.secret.key })).status).toBe(200);

      service.clock.advance((windowSeconds - 2) * 1000);
      expectProblem(await call('getAccount', { token }), 'rate_limited');
      service.clock.advance(1000);
      expect((await call('getAccount', { token })).status).toBe(200);
    },
  );

  it('counts refused requests too, so bad input does not probe for free', async () => {
    const service = fixture();
    const call = restCaller(service);
    const account = await service.createAccount('free');
    const token = account.keys.secret.key;
    const limit = accountPlanMembers.free.requestsPerMinute;
    for (let index = 0; index < limit; index += 1) {
      expect((await call('getStream', { token, params: { streamId: 'not-an-id' } })).status).toBe(400);
    }
    expectProblem(await call('getAccount', { token }), 'rate_limited');
    service.nextRateWindow();
    expect((await call('getAccount', { token })).status).toBe(200);
  });
});
