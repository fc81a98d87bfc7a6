// Issue 12, item 3: traffic without a valid credential is limited per client address (x-rate-limit.perAddress),
// never touching a valid key's own window; the token endpoint answers in RFC 6749 form.
import { describe, expect, it } from 'vitest';
import { accountPlanMembers, apiPolicies } from '../../generated/types/facts.js';
import { AccountResources, restCaller } from '../testing/account-resources.js';
import type { Reply } from '../testing/call-operation.js';
import { expectProblem } from '../testing/expect-problem.js';
import { consent, oauthSetup, tokenRequest } from '../testing/oauth-flow.js';
import { useServiceFixture } from '../testing/service-fixture.js';

const fixture = useServiceFixture();
const limit = apiPolicies.rateLimit.perAddress.requestsPerWindow;

async function repeat(times: number, send: () => Promise<Reply>): Promise<Reply[]> {
  const replies: Reply[] = [];
  for (let index = 0; index < times; index += 1) replies.push(await send());
  return replies;
}

const statuses = (replies: Reply[]) => [...new Set(replies.map((reply) => reply.status))];

describe('per-address limit for requests without a valid credential (issue 12, item 3)', () => {
  it('answers 429 with Retry-After after the window’s failures; a valid key from that address is untouched', async () => {
    const service = fixture();
    const call = restCaller(service);
    const account = await service.createAccount('paid');
    const remoteAddress = '198.51.100.7';
    const missing = await repeat(limit / 2, () => call('getAccount', { remoteAddress }));
    const unknown = await repeat(limit / 2, () =>
      call('getAccount', { remoteAddress, token: `sk_live_${'x'.repeat(40)}` }),
    );
    expect(statuses([...missing, ...unknown])).toEqual([401]);
    const refused = await call('getAccount', { remoteAddress, token: 'sk_live_guess' });
    expectProblem(refused, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBe(apiPolicies.rateLimit.windowSeconds);

    // The valid key passes from the same address, and its own window counts only its own request.
    const valid = await call('getAccount', { remoteAddress, token: account.keys.secret.key });
    expect(valid.status).toBe(200);
    const planLimit = accountPlanMembers.paid.requestsPerMinute;
    expect(String(valid.headers.ratelimit)).toBe(`"per-key";r=${planLimit - 1};t=60`);
    // Another address is not affected, and the window ends.
    expectProblem(await call('getAccount', { remoteAddress: '198.51.100.8' }), 'missing_token');
    service.nextRateWindow();
    expectProblem(await call('getAccount', { remoteAddress }), 'missing_token');
  });

  it('takes an IPv6 client’s /64 as one address', async () => {
    const call = restCaller(fixture());
    await repeat(limit, () => call('getAccount', { remoteAddress: '2001:db8:1:2::1' }));
    expectProblem(await call('getAccount', { remoteAddress: '2001:db8:1:2:ffff::9' }), 'rate_limited');
    expectProblem(await call('getAccount', { remoteAddress: '2001:db8:1:3::1' }), 'missing_token');
  });

  it('counts public feed reads per address', async () => {
    const service = fixture();
    const call = restCaller(service);
    const account = await service.createAccount('paid');
    const report = await new AccountResources(call, account.keys.secret.key).report();
    const remoteAddress = '198.51.100.20';
    const reads = await repeat(limit, () =>
      call('getReportFeed', { remoteAddress, params: { reportId: report.id } }),
    );
    expect(statuses(reads)).toEqual([200]);
    const refused = await call('getReportFeed', { remoteAddress, params: { reportId: report.id } });
    expectProblem(refused, 'rate_limited');
    expect(refused.headers['retry-after']).toMatch(/^[0-9]+$/);
  });

  it('refuses guesses at the token endpoint in RFC 6749 form, then even the right secret until the window ends', async () => {
    const service = fixture();
    const setup = await oauthSetup(service, 'streams:read');
    const remoteAddress = '198.51.100.30';
    const guess = () =>
      setup.call('oauthToken', {
        remoteAddress,
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: 'rt_GuessedGuessedGuessed',
          client_id: setup.client.clientId,
          client_secret: 'wrong',
        }).toString(),
      });
    expect(statuses(await repeat(limit, guess))).toEqual([401]);
    const refused = await guess();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
    expect(refused.headers['retry-after']).toMatch(/^[0-9]+$/);
    // Other addresses still get the normal answer.
    expect(
      (await tokenRequest(setup, { grant_type: 'refresh_token', refresh_token: 'rt_UnknownUnknownUnknown' }))
        .status,
    ).toBe(400);
  });

  it('counts wrong API keys at the consent form', async () => {
    const service = fixture();
    const setup = await oauthSetup(service, 'streams:read');
    const remoteAddress = '198.51.100.40';
    const fields = { ...setup.request, decision: 'approve', api_key: 'sk_live_wrong' };
    const wrong = () =>
      setup.call('oauthConsent', { remoteAddress, body: new URLSearchParams(fields).toString() });
    expect(statuses(await repeat(limit, wrong))).toEqual([400]);
    const refused = await wrong();
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect((await consent(setup, 'approve')).status).toBe(302);
  });

  it('believes X-Forwarded-For only when a proxy is trusted', async () => {
    const service = fixture();
    const trusting = await service.buildAppsWith({});
    const settingsApps = await import('./build-apps.js').then(({ buildApps }) =>
      buildApps(service.dependencies, { trustProxy: true }),
    );
    const forwardedFrom = (address: string) => ({ 'x-forwarded-for': address });
    const untrusted = restCaller(service, trusting.api);
    const trusted = restCaller(service, settingsApps.api);
    try {
      // Behind a trusted proxy, each forwarded client has its own window; the proxy's address has none of them.
      await repeat(limit, () =>
        trusted('getAccount', { remoteAddress: '10.0.0.1', headers: forwardedFrom('203.0.113.1') }),
      );
      expectProblem(
        await trusted('getAccount', { remoteAddress: '10.0.0.1', headers: forwardedFrom('203.0.113.1') }),
        'rate_limited',
      );
      expectProblem(
        await trusted('getAccount', { remoteAddress: '10.0.0.1', headers: forwardedFrom('203.0.113.2') }),
        'missing_token',
      );
      // Without trust, the header is ignored: the socket's address is the client.
      await repeat(limit, () =>
        untrusted('getAccount', { remoteAddress: '10.0.0.2', headers: forwardedFrom('203.0.113.3') }),
      );
      expectProblem(
        await untrusted('getAccount', { remoteAddress: '10.0.0.2', headers: forwardedFrom('203.0.113.4') }),
        'rate_limited',
      );
    } finally {
      await Promise.all([settingsApps.api.close(), settingsApps.auth.close()]);
    }
  });
});
