// HTTP Basic client credentials at the token endpoint, read to the letter (issue 13, found by the mutation score of
// reference/auth/client-authentication.ts): the header is `Basic`, one or more spaces and base64(client_id:
// client_secret) with each half form-encoded (RFC 6749 section 2.3.1, RFC 7235 section 2.1), and nothing else. Every
// request carries a code nobody was issued, so no authorization round trip is needed: a client whose authentication
// passes is refused for the code (400 invalid_grant), one whose authentication fails is 401 invalid_client. These
// requests fail client authentication, which counts against the sending address (x-rate-limit.perAddress): against a
// plain-HTTP target on loopback they come from a loopback address of their own and take nothing from the run's
// address budget; elsewhere they go through the budget like any probe.
import { describe } from 'vitest';
import { check, expectThat } from '../harness/check.js';
import type { Exchange } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import { headerOf } from './support/auth-evidence.js';
import { expectOAuthError, type OAuthMeans, oauthMeans } from './support/auth-oauth.js';
import { tokenSender } from './support/oauth-clients.js';

/** An authorization code no client was issued: only a request whose client authenticated gets as far as it. */
const unissuedCode = 'conformance-never-issued';

type BasicSender = (authorization: string, fields?: Record<string, string>) => Promise<Exchange>;

/** Token requests with this Authorization header and the unissued code, from an address of their own where one can be had. */
function basicSender(means: OAuthMeans, authUrl: string): BasicSender {
  const sendToken = tokenSender(authUrl);
  return (authorization, fields = {}) =>
    sendToken(
      {
        grant_type: 'authorization_code',
        code: unissuedCode,
        redirect_uri: means.client.redirectUri,
        ...fields,
      },
      { authorization },
    );
}

const base64 = (text: string) => Buffer.from(text).toString('base64');

/** RFC 6749 section 2.3.1 with every character of each half percent-encoded: a server must decode it. */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
}

/** A 401 invalid_client carrying a Basic challenge (RFC 6749 section 5.2: the client tried HTTP Basic). */
function expectBasicRefused(exchange: Exchange, when: string): void {
  expectOAuthError(exchange, 401, 'invalid_client', when);
  const challenge = headerOf(exchange, 'www-authenticate') ?? '';
  expectThat(/^Basic\b/i.test(challenge), `a WWW-Authenticate: Basic challenge ${when}`, exchange);
}

/** The target's client, a sender of Basic token requests, and its form-encoded halves and their Base64; or a skip. */
function basicSetup(skip: (reason: string) => never) {
  const means = oauthMeans();
  if (typeof means === 'string') return skip(means);
  const { authUrl } = currentTarget();
  if (authUrl === null) return skip('the target has no auth URL (--auth-url)');
  const user = encodeURIComponent(means.client.clientId);
  const password = encodeURIComponent(means.client.clientSecret);
  return {
    means,
    sendToken: basicSender(means, authUrl),
    user,
    password,
    credentials: base64(`${user}:${password}`),
  };
}

describe('OAuth token endpoint: HTTP Basic client credentials', () => {
  check(
    ['INF-SCHEMAS-TOKEN-REQUEST-ONEOF-0-PROPERTIES-CLIENT_SECRET'],
    'Basic credentials that are not exactly `Basic base64(client_id:client_secret)` fail client authentication (401 invalid_client with a Basic challenge): another scheme name, text after the credentials, no colon, not Base64, halves that are not form-encoded, a + (a form-encoded space) inside the user name, a wrong secret',
    async ({ skip }) => {
      const { sendToken, user, password, credentials } = basicSetup(skip);
      // A + inside the user name decodes to a space: the name is no longer the client's.
      const spacedUser = `${user.slice(0, 1)}+${user.slice(1)}`;
      const refusals: [string, string][] = [
        [`XBasic ${credentials}`, 'for the scheme XBasic (text before Basic)'],
        [`Basic ${credentials} ${credentials}`, 'for text after the credentials'],
        [`Basic ${credentials}.`, 'for a character after the Base64 credentials that Base64 does not have'],
        [`Basic ${base64(user)}`, 'for Basic credentials without a colon'],
        ['Basic !!not-base64!!', 'for Basic credentials that are not Base64'],
        [`Basic ${base64(`%zz${user}:${password}`)}`, 'for Basic halves that are not form-encoded'],
        [`Basic ${base64(`${spacedUser}:${password}`)}`, `for the user name ${spacedUser} (a + is a space)`],
        [`Basic ${base64(`${user}:${password}x`)}`, 'for a wrong client secret sent with Basic'],
      ];
      for (const [authorization, when] of refusals) {
        const refused = await sendToken(authorization);
        if (authorization.startsWith('Basic ')) expectBasicRefused(refused, when);
        else expectOAuthError(refused, 401, 'invalid_client', when);
      }
    },
  );

  check(
    ['INF-SCHEMAS-TOKEN-REQUEST-ONEOF-0-PROPERTIES-CLIENT_SECRET'],
    'Basic credentials written as RFC 6749 and RFC 7235 allow authenticate the client (the unissued code is then 400 invalid_grant): the scheme in lower case, several spaces before the credentials, halves percent-encoded throughout, a form client_id equal to the user name; a form client_id other than the user name, or beside halves that are not form-encoded, is 400 invalid_request (or 401 invalid_client)',
    async ({ skip }) => {
      const { means, sendToken, user, password, credentials } = basicSetup(skip);
      const { clientId, clientSecret } = means.client;
      const accepted: [string, Record<string, string>, string][] = [
        [`basic ${credentials}`, {}, 'with the scheme written basic (schemes are case-insensitive)'],
        [`Basic   ${credentials}`, {}, 'with three spaces before the credentials'],
        [
          `Basic ${base64(`${percentEncoded(clientId)}:${percentEncoded(clientSecret)}`)}`,
          {},
          'with every character of both halves percent-encoded',
        ],
        [
          `Basic ${credentials}`,
          { client_id: clientId },
          'with a form client_id equal to the Basic user name',
        ],
      ];
      for (const [authorization, fields, when] of accepted) {
        expectOAuthError(
          await sendToken(authorization, fields),
          400,
          'invalid_grant',
          `for a code never issued, ${when}`,
        );
      }
      // Which of the two refusals is the server's choice: the request is malformed, or the client is not who it says.
      const refusals: [string, string, string][] = [
        [user, `${clientId}x`, 'for a form client_id other than the Basic user name'],
        [`%zz${user}`, clientId, 'for Basic halves that are not form-encoded beside a form client_id'],
      ];
      for (const [basicUser, formClientId, when] of refusals) {
        const refused = await sendToken(`Basic ${base64(`${basicUser}:${password}`)}`, {
          client_id: formClientId,
        });
        if (refused.response.status === 401) expectOAuthError(refused, 401, 'invalid_client', when);
        else expectOAuthError(refused, 400, 'invalid_request', when);
      }
    },
  );
});
