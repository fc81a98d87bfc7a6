// Codes and refresh tokens belong to the client they were issued to, and a public client authenticates with its
// client_id alone (issue 13, family 5: a second OAuth client; found by the mutation score of reference/auth, whose
// client-binding tests and public-client path no check reached). Runs when the target names a second confidential
// client and a public one (the embedded default seeds both). Refused requests come from an address of their own.
import { describe } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { apiPolicies } from '../../generated/types/facts.js';
import { check, expectThat } from '../harness/check.js';
import { type Exchange, send } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import {
  exchangeCode,
  expectOAuthError,
  type GrantedCode,
  type OAuthMeans,
  oauthMeans,
  obtainCode,
  obtainTokens,
  refreshTokens,
  tokensOf,
} from './support/auth-oauth.js';
import { oauthScheme, scopesOf } from './support/auth-operations.js';
import { quotaField } from './support/auth-rate-limit.js';
import { publicClientMeans, secondClientMeans, tokenSender } from './support/oauth-clients.js';

const accountScope = (scopesOf(routes.getAccount, oauthScheme) ?? []).join(' ');

/** The first client's means and another's; `other` is a reason to skip when the target names no such client. */
function clientPair(other: OAuthMeans | string): { first: OAuthMeans; other: OAuthMeans } | string {
  const first = oauthMeans();
  if (typeof first === 'string') return first;
  if (typeof other === 'string') return other;
  return { first, other };
}

/** The form of a code exchange by `client` for a code `granted` at `redirectUri`, with its verifier. */
function codeExchangeFields(client: OAuthMeans['client'], granted: GrantedCode, redirectUri: string) {
  return {
    grant_type: 'authorization_code',
    code: granted.code,
    redirect_uri: redirectUri,
    client_id: client.clientId,
    client_secret: client.clientSecret,
    code_verifier: granted.verifier,
  };
}

const sendToken = () => tokenSender(currentTarget().authUrl ?? '');

/** The spec's remainder field of the rate window (x-rate-limit.window.headers). */
const remainingHeader = apiPolicies.rateLimit.window.headers[1];
/** Requests with the first client's token between two reads of the second client's remainder. */
const firstClientRequests = 5;

/** One request with an access token, counted against its window: GET /account. */
const readAccount = (accessToken: string) =>
  send(routes.getAccount.method, routes.getAccount.url, { key: accessToken });

/** GET /account with `accessToken`, and the window's remainder its answer reports. */
async function remainderOf(accessToken: string): Promise<{ exchange: Exchange; remaining: number }> {
  const exchange = await readAccount(accessToken);
  return { exchange, remaining: quotaField(exchange, remainingHeader, 'r') };
}

/**
 * `firstClientRequests` requests with `busy` between two reads with `other`: the other token's remainder may fall by
 * its own request only (a window that began in between raises it). `whose` names the two in the failure.
 */
async function expectOwnWindow(busy: string, other: string, whose: { busy: string; other: string }) {
  const before = await remainderOf(other);
  for (let request = 0; request < firstClientRequests; request += 1) await readAccount(busy);
  const after = await remainderOf(other);
  const fell = before.remaining - after.remaining;
  expectThat(
    fell < 1 + firstClientRequests,
    `${whose.other}'s ${remainingHeader} remainder not lowered by ${whose.busy}'s ${firstClientRequests} requests; it fell by ${fell}`,
    after.exchange,
  );
}

describe('OAuth: each client its own codes and tokens', () => {
  check(
    ['AUTH-OAUTH-EXCHANGE', 'INF-SCHEMAS-OAUTH-ERROR'],
    'a code issued to one client is 400 invalid_grant when another client presents it with its own credentials (RFC 6749 section 4.1.3)',
    async ({ skip }) => {
      const clients = clientPair(secondClientMeans());
      if (typeof clients === 'string') return skip(clients);
      const { first, other } = clients;
      const granted = await obtainCode(first, accountScope);
      // Everything as the code was issued but the client: its redirect_uri and verifier.
      const refused = await sendToken()(codeExchangeFields(other.client, granted, first.client.redirectUri));
      expectOAuthError(refused, 400, 'invalid_grant', 'for a code issued to another client');
    },
  );

  check(
    ['AUTH-OAUTH-REFRESH', 'INF-SCHEMAS-OAUTH-ERROR'],
    'a refresh token issued to one client is 400 invalid_grant when another client presents it with its own credentials (RFC 6749 section 6)',
    async ({ skip }) => {
      const clients = clientPair(secondClientMeans());
      if (typeof clients === 'string') return skip(clients);
      const { first, other } = clients;
      const { refresh_token } = await obtainTokens(first, accountScope);
      const refused = await sendToken()({
        grant_type: 'refresh_token',
        refresh_token,
        client_id: other.client.clientId,
        client_secret: other.client.clientSecret,
      });
      expectOAuthError(refused, 400, 'invalid_grant', "for another client's refresh token");
    },
  );

  check(
    [
      'INF-OPENAPI-PATHS-OAUTH-AUTHORIZE-GET-PARAMETERS-5',
      'INF-SCHEMAS-TOKEN-REQUEST-ONEOF-0-PROPERTIES-CLIENT_SECRET',
      'INF-SCHEMAS-TOKEN-REQUEST-ONEOF-0-PROPERTIES-CODE_VERIFIER',
    ],
    'a public client exchanges its code with client_id alone and its code_verifier, and refreshes with client_id alone',
    async ({ skip }) => {
      const clients = clientPair(publicClientMeans());
      if (typeof clients === 'string') return skip(clients);
      const { other: publicClient } = clients;
      const granted = await obtainCode(publicClient, accountScope);
      const tokens = tokensOf(await exchangeCode(publicClient, granted, { client_secret: null }));
      tokensOf(await refreshTokens(publicClient, tokens.refresh_token, { client_secret: null }));
    },
  );

  check(
    ['INF-SCHEMAS-TOKEN-REQUEST-ONEOF-0-PROPERTIES-CLIENT_SECRET', 'INF-SCHEMAS-OAUTH-ERROR'],
    'a public client that sends a client_secret is 401 invalid_client: it has none, and sends client_id alone',
    async ({ skip }) => {
      const clients = clientPair(publicClientMeans());
      if (typeof clients === 'string') return skip(clients);
      const { other: publicClient } = clients;
      const granted = await obtainCode(publicClient, accountScope);
      const withSecret = { ...publicClient.client, clientSecret: 'cs_conformance-made-up' };
      const refused = await sendToken()(
        codeExchangeFields(withSecret, granted, publicClient.client.redirectUri),
      );
      expectOAuthError(refused, 401, 'invalid_client', 'for a public client sending a client_secret');
    },
  );
});

/** Tries of the shared-window check: a try that straddles a window's end is told apart by a remainder that rose. */
const sharedWindowTries = 3;

describe('OAuth: a rate window per grant', () => {
  check(
    ['INF-OPENAPI-X-RATE-LIMIT-WINDOW'],
    "an OAuth grant is one credential: a token refreshed from it counts against the grant's window, and another grant of the same client has a window of its own",
    async ({ skip }) => {
      const means = oauthMeans();
      if (typeof means === 'string') return skip(means);
      let lastTry: { first: number; refreshed: number; exchange: Exchange } | null = null;
      for (let attempt = 0; attempt < sharedWindowTries; attempt += 1) {
        const issued = await obtainTokens(means, accountScope);
        const refreshed = tokensOf(await refreshTokens(means, issued.refresh_token));
        const first = await remainderOf(issued.access_token);
        for (let request = 1; request < firstClientRequests; request += 1)
          await readAccount(issued.access_token);
        const after = await remainderOf(refreshed.access_token);
        lastTry = { first: first.remaining, refreshed: after.remaining, exchange: after.exchange };
        // The grant's window fell by one a request; a remainder that did not fall may be a new window: try again.
        if (after.remaining < first.remaining) break;
      }
      expectThat(
        lastTry !== null && lastTry.refreshed === lastTry.first - firstClientRequests,
        `the refreshed token's ${remainingHeader} remainder ${firstClientRequests} below the first token's after its ${firstClientRequests} requests (first ${lastTry?.first}, refreshed ${lastTry?.refreshed}, in ${sharedWindowTries} tries)`,
        lastTry?.exchange ?? null,
      );
      const [one, other] = await Promise.all([
        obtainTokens(means, accountScope),
        obtainTokens(means, accountScope),
      ]);
      await expectOwnWindow(one.access_token, other.access_token, {
        busy: 'the first grant',
        other: 'another grant of the same client',
      });
    },
  );

  check(
    ['INF-OPENAPI-X-RATE-LIMIT-WINDOW'],
    "another client's access token counts against a window of its own: requests with the first client's token leave the second's RateLimit remainder alone",
    async ({ skip }) => {
      const clients = clientPair(secondClientMeans());
      if (typeof clients === 'string') return skip(clients);
      const [firstTokens, otherTokens] = await Promise.all([
        obtainTokens(clients.first, accountScope),
        obtainTokens(clients.other, accountScope),
      ]);
      await expectOwnWindow(firstTokens.access_token, otherTokens.access_token, {
        busy: 'the first client',
        other: 'the second client',
      });
    },
  );
});
