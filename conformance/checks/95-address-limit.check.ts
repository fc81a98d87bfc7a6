// The per-address window (x-rate-limit.perAddress): requests without a valid credential from one client address are
// refused with 429 past requestsPerWindow, in the envelope on the API and as an RFC 6749 body at the token endpoint,
// while a valid key from that address is still served. Against a loopback target the burst comes from a loopback
// address of its own; against a deployment it comes from the suite's address, which is why the file runs last.
import { describe } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { errorRoles } from '../../generated/types/errors.js';
import { apiPolicies } from '../../generated/types/facts.js';
import { validateOauthTokenResponse429 } from '../../generated/validators/index.js';
import { ownLoopbackAddress, requestFrom } from '../harness/address-client.js';
import { check, expectThat } from '../harness/check.js';
import type { Exchange } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import { once } from './support/rest-fixtures.js';
import { expectError } from './support/rest-http.js';

const { requestsPerWindow } = apiPolicies.rateLimit.perAddress;
const concurrency = 16;

/** A well-formed secret key no account holds. */
const unknownKey = `tlm_sk_${'0'.repeat(32)}`;

interface Burst {
  localAddress: string | null;
  /** Answers in the order they were sent, up to and including the first 429. */
  answers: Exchange[];
  firstRefusal: number;
  /** A valid key's request and a token request from the refused address, sent as soon as it was refused. */
  validKey: Exchange | null;
  tokenRequest: Exchange | null;
}

/** A refusal whose window ends sooner than this is burst again in the next window: the follow-ups need time. */
const followUpSeconds = 15;
/** The burst, a wait of up to followUpSeconds and a second burst: 300 requests took over 30 s at load 20. */
const burstTimeoutMilliseconds = 150_000;

/** Requests with an unknown key from `localAddress` until the first 429 (at most twice the window's requests). */
async function refuse(
  localAddress: string | null,
  url: string,
): Promise<Pick<Burst, 'answers' | 'firstRefusal'>> {
  const answers: Exchange[] = [];
  let firstRefusal = -1;
  // Twice the window's requests at most: a window that rolls over once during the burst still ends in a refusal.
  for (let sent = 0; sent < 2 * requestsPerWindow && firstRefusal < 0; sent += concurrency) {
    const batch = await Promise.all(
      Array.from({ length: concurrency }, () =>
        requestFrom(localAddress, { method: 'GET', url, headers: { authorization: `Bearer ${unknownKey}` } }),
      ),
    );
    for (const answer of batch) {
      answers.push(answer);
      if (firstRefusal < 0 && answer.response.status === 429) firstRefusal = answers.length - 1;
    }
  }
  return { answers, firstRefusal };
}

function validKeyRequest(localAddress: string | null): Promise<Exchange> | null {
  // An extra key where there is one: 90-rate-limits has used up the primary key's window just before.
  const { keys, baseUrl } = currentTarget();
  const key = keys.paidSecretExtras.at(-1) ?? keys.paidSecret;
  if (key === null) return null;
  return requestFrom(localAddress, {
    method: 'GET',
    url: `${baseUrl.replace(/\/+$/, '')}${routes.getAccount.url}`,
    headers: { authorization: `Bearer ${key}` },
  });
}

function tokenRequest(localAddress: string | null): Promise<Exchange> | null {
  const { authUrl, oauth } = currentTarget();
  if (authUrl === null) return null;
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: 'conformance-refused',
    redirect_uri: oauth?.redirectUri ?? 'https://client.example/callback',
    client_id: oauth?.clientId ?? 'conformance',
    client_secret: oauth?.clientSecret ?? 'conformance',
  }).toString();
  return requestFrom(localAddress, {
    method: 'POST',
    url: `${authUrl.replace(/\/+$/, '')}${routes.oauthToken.url}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
}

/**
 * The burst, and at once after its refusal the follow-ups the checks judge: sent later (after the first check), a
 * window that ends soon after the refusal would be over, and on a loaded machine it was.
 */
const burst = once(async (): Promise<Burst> => {
  const target = currentTarget();
  const localAddress = ownLoopbackAddress(target.baseUrl);
  const url = `${target.baseUrl.replace(/\/+$/, '')}${routes.listStreams.url}`;
  let refused = await refuse(localAddress, url);
  const retryAfter = Number(refused.answers[refused.firstRefusal]?.response.headers['retry-after'] ?? 0);
  if (refused.firstRefusal >= 0 && retryAfter < followUpSeconds) {
    await new Promise((resolve) => setTimeout(resolve, (retryAfter + 1) * 1000));
    refused = await refuse(localAddress, url);
  }
  const [validKey, token] = await Promise.all([validKeyRequest(localAddress), tokenRequest(localAddress)]);
  return { localAddress, ...refused, validKey, tokenRequest: token };
});

describe('the per-address window', () => {
  check(
    ['INF-OPENAPI-X-RATE-LIMIT-PERADDRESS'],
    `requests with an unknown key from one address are refused with 429 rate_limited and Retry-After once ${requestsPerWindow} were made in the window; a valid key from that address is still served`,
    async (context) => {
      const { localAddress, answers, firstRefusal } = await burst();
      const refused = answers[firstRefusal];
      context.evidence('burst', {
        from: localAddress ?? 'the suite’s address',
        sent: answers.length,
        firstRefusalAt: firstRefusal + 1,
        statuses: answers.map((each) => each.response.status).join(' '),
      });
      expectThat(refused !== undefined, `a 429 within ${2 * requestsPerWindow} requests`);
      const answered = answers.filter((each) => each.response.status !== 429);
      expectThat(
        answered.every((each) => each.response.status === 401),
        'every request not refused answered 401',
        answered.find((each) => each.response.status !== 401) ?? null,
      );
      // Only an address of its own is known to have made no other requests in the window. The requests of a batch
      // are sent at once and may be counted in any order (several nodes, a pool of connections), so what is judged
      // is how many were admitted by the burst's end, not where in the sending order the first 429 fell.
      const admitted = answers.filter((each) => each.response.status === 401).length;
      if (localAddress !== null)
        expectThat(
          admitted >= requestsPerWindow,
          `no refusal before ${requestsPerWindow} requests were admitted (${admitted} were)`,
          refused,
        );
      expectError(refused, { code: errorRoles.rateLimited });
      expectThat(
        /^[1-9]\d*$/.test(refused.response.headers['retry-after'] ?? ''),
        'a Retry-After of whole seconds',
        refused,
      );
      const { validKey } = await burst();
      if (validKey === null) return;
      const shown = { ...validKey, request: { ...validKey.request, headers: {} } };
      context.evidence('a valid key from the refused address', shown);
      expectThat(
        validKey.response.status === 200,
        'status 200 for a valid key from the refused address',
        shown,
      );
    },
    { timeout: burstTimeoutMilliseconds },
  );

  check(
    ['INF-OPENAPI-PATHS-OAUTH-TOKEN-POST-RESPONSES-429'],
    'while an address is refused, the token endpoint answers 429 temporarily_unavailable (RFC 6749 body) with Retry-After before checking anything',
    async (context) => {
      if (currentTarget().authUrl === null)
        return context.skip('the target names no {auth_url} (--auth-url)');
      const { firstRefusal, tokenRequest: answer } = await burst();
      expectThat(firstRefusal >= 0, 'the address refused by the burst of the check above');
      if (answer === null) throw new Error('no token request without an auth URL');
      context.evidence('answer', {
        ...answer,
        request: { ...answer.request, body: '(a valid client, a made-up code)' },
      });
      expectThat(answer.response.status === 429, 'status 429', answer);
      const verdict = validateOauthTokenResponse429(answer.response.body);
      expectThat(verdict.ok, 'an RFC 6749 error body', answer);
      expectThat(
        (answer.response.body as { error?: unknown }).error === 'temporarily_unavailable',
        'error temporarily_unavailable',
        answer,
      );
      expectThat(
        /^[1-9]\d*$/.test(answer.response.headers['retry-after'] ?? ''),
        'a Retry-After of whole seconds',
        answer,
      );
    },
    { timeout: burstTimeoutMilliseconds },
  );
});
