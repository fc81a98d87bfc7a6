// Codes and refresh tokens belong to the client they were issued to, and a public client authenticates with its
// client_id alone (issue 13, family 5: a second OAuth client; found by the mutation score of reference/auth, whose
// client-binding tests and public-client path no check reached). Runs when the target names a second confidential
// client and a public one (the embedded default seeds both). Refused requests come from an address of their own.
import { describe } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { apiPolicies } from '../../generated/types/facts.js';
import { check, expectThat } from '../harness/check.js';
import { send } from '../harness/probe.js';
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

describe('OAuth: each client its own rate window', () => {
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
      const read = (accessToken: string) =>
        send(routes.getAccount.method, routes.getAccount.url, { key: accessToken });
      const before = await read(otherTokens.access_token);
      for (let request = 0; request < firstClientRequests; request += 1) await read(firstTokens.access_token);
      const after = await read(otherTokens.access_token);
      // Its own request lowers it by one; a window that began in between raises it.
      const fell = quotaField(before, remainingHeader, 'r') - quotaField(after, remainingHeader, 'r');
      expectThat(
        fell < 1 + firstClientRequests,
        `the second client's ${remainingHeader} remainder not lowered by the first client's ${firstClientRequests} requests; it fell by ${fell}`,
        after,
      );
    },
  );
});
