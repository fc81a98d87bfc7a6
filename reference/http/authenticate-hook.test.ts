import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { accountPlanMembers } from '../../generated/types/facts.js';
import { ApiProblem } from '../../runtime/error-envelope.js';
import { useServiceFixture } from '../testing/service-fixture.js';
import { authenticateHook } from './authenticate-hook.js';

const fixture = useServiceFixture();
const route = routes.createStream;

/** The parts of a request and reply the hook reads and writes: the Authorization header and the reply's fields. */
function exchange(authorization: string) {
  const headers: Record<string, string> = {};
  const request = {
    headers: { authorization },
    raw: { rawHeaders: ['Authorization', authorization] },
    ip: '127.0.0.1',
  } as unknown as FastifyRequest;
  const reply = {
    header(name: string, value: string) {
      headers[name.toLowerCase()] = value;
      return reply;
    },
  } as unknown as FastifyReply;
  return { context: { request, reply, operationId: route.operationId, security: route.security }, headers };
}

describe('authenticateHook', () => {
  it('admits a key the store holds without a promise, counting its window (issue 16)', async () => {
    const hook = authenticateHook(fixture().dependencies);
    const { accountId, keys } = await fixture().createAccount('paid');
    const authorization = `Bearer ${keys.secret.key}`;
    // The first request reads the key from the database; the store keeps it.
    const first = exchange(authorization);
    const read = hook(first.context);
    expect(read).toBeInstanceOf(Promise);
    expect((await read).accountId).toBe(accountId);
    const second = exchange(authorization);
    const held = hook(second.context);
    expect(held).not.toBeInstanceOf(Promise);
    expect((held as { accountId: string }).accountId).toBe(accountId);
    const limit = accountPlanMembers.paid.requestsPerMinute;
    expect(second.headers.ratelimit).toMatch(new RegExp(`^"per-key";r=${limit - 2};t=\\d+$`));
  });

  it('refuses a used-up window at once, and an unknown key after counting the address', async () => {
    const hook = authenticateHook(fixture().dependencies);
    const { keys } = await fixture().createAccount('free');
    const authorization = `Bearer ${keys.secret.key}`;
    await hook(exchange(authorization).context);
    for (let index = 1; index < accountPlanMembers.free.requestsPerMinute; index += 1)
      hook(exchange(authorization).context);
    expect(() => hook(exchange(authorization).context)).toThrow(
      expect.objectContaining({ code: 'rate_limited', status: 429 }),
    );
    const unknown = hook(exchange('Bearer tlm_sk_00000000000000000000000000000000').context);
    expect(unknown).toBeInstanceOf(Promise);
    await expect(unknown).rejects.toBeInstanceOf(ApiProblem);
    await expect(unknown).rejects.toMatchObject({ code: 'invalid_token', status: 401 });
  });
});
