// How long OAuth codes and access tokens live, seen on the target's clock (issue 13, family 5: lifetimes checked on
// the target's time scale instead of skipped). On the embedded default the flow runs on the fast-clock twin (3600×: an
// access token's hour is a second of wall time); against a deployment on its own clock at --time-scale, and waits
// longer than a few seconds of wall time are skipped unless --slow. The refresh token's 30 days stay out of reach
// (12 min of wall time even at 3600×).
import { describe } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { securitySchemeFacts } from '../../generated/types/facts.js';
import { type CheckContext, check, expectThat } from '../harness/check.js';
import { type Server, send } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import {
  hasErrorType,
  hasStatusAndCode,
  headerOf,
  statusAndCode,
  statusAndType,
} from './support/auth-evidence.js';
import {
  exchangeCode,
  expectOAuthError,
  type OAuthMeans,
  oauthMeans,
  obtainCode,
  refreshTokens,
  type Tokens,
  tokensOf,
} from './support/auth-oauth.js';
import { oauthScheme, scopesOf } from './support/auth-operations.js';
import { clockWaitOrSkip, sleep } from './support/data-plane.js';
import { judgesInferred } from './support/rest-requirements.js';
import { bearerChallenge } from './support/www-authenticate.js';

const lifetimes = securitySchemeFacts.OAuth2.tokenLifetimes;
const accountScope = (scopesOf(routes.getAccount, oauthScheme) ?? []).join(' ');
/** Wall time beyond a lifetime before a credential is tried again: timers, rounding, a loaded machine. */
const marginMilliseconds = 500;

interface ClockedMeans {
  means: OAuthMeans;
  /** Where an access token of the flow is used. */
  apiServer: Server;
  /** How many times faster than the wall clock the flow's target runs. */
  scale: number;
}

/**
 * The flow on the fast-clock twin when there is one (the mutation job starts that twin for a file that reads
 * `fastClock`), else on the target at its time scale; or why neither works.
 */
function clockedOAuthMeans(): ClockedMeans | string {
  const target = currentTarget();
  const fast = target.fastClock;
  if (fast === null) {
    const means = oauthMeans();
    return typeof means === 'string' ? means : { means, apiServer: 'api', scale: target.timeScale };
  }
  if (fast.authUrl === null || fast.oauth === null) return 'the fast-clock twin names no OAuth client';
  return {
    means: {
      client: fast.oauth,
      consent: { kind: 'login-hint', accountId: fast.paidAccountId },
      authServer: 'fast-auth',
    },
    apiServer: 'fast',
    scale: fast.timeScale,
  };
}

/** Tokens, and the wall-clock bounds of their issue: after the exchange was sent, before its answer came. */
type IssuedTokens = Tokens & { sentAt: number; answeredAt: number };

/** Tries at getting tokens before a fast clock's code lifetime is taken to be too short for this machine. */
const tokenTries = 5;

/**
 * Tokens from the clocked flow. At 3600× a code lives 600 s / 3600 ≈ 0.17 s of wall time, which a loaded machine can
 * miss between the redirect and the exchange: an exchange refused after the code's lifetime had passed on the target's
 * clock is the target keeping its promise, so the flow is tried again (and the check skipped if every try was late);
 * one refused within that time fails the check.
 */
async function clockedTokens(context: CheckContext, clocked: ClockedMeans): Promise<IssuedTokens> {
  const codeWallMs = (lifetimes.authorizationCode.lifetimeSeconds * 1000) / clocked.scale;
  for (let attempt = 1; attempt <= tokenTries; attempt += 1) {
    const authorizedBefore = Date.now();
    const granted = await obtainCode(clocked.means, accountScope);
    const sentAt = Date.now();
    const exchange = await exchangeCode(clocked.means, granted);
    const answeredAt = Date.now();
    if (exchange.response.status === 200 || answeredAt - authorizedBefore <= codeWallMs)
      return { ...tokensOf(exchange), sentAt, answeredAt };
  }
  return context.skip(
    `every one of ${tokenTries} code exchanges came after the code's ${Math.round(codeWallMs)} ms of wall time at scale ${clocked.scale}: this machine is too slow to get tokens on that clock`,
  );
}

/** The clocked flow and the wall time `seconds` of its clock take, or a skip when there is none or it is too long. */
function clockedFor(context: CheckContext, seconds: number): ClockedMeans & { wallMs: number } {
  const clocked = clockedOAuthMeans();
  if (typeof clocked === 'string') return context.skip(clocked);
  return { ...clocked, wallMs: clockWaitOrSkip(context, seconds, clocked.scale) };
}

/** The account read with the flow's access token, on the API server of the flow's target. */
function useAccessToken(clocked: ClockedMeans, tokens: Tokens) {
  return send(routes.getAccount.method, routes.getAccount.url, {
    key: tokens.access_token,
    server: clocked.apiServer,
  });
}

describe('OAuth lifetimes on the target clock', () => {
  check(
    ['ERR-TOKEN-EXPIRED', 'LIM-ACCESS-TOKEN-LIFETIME', 'INF-SCHEMAS-ERROR-CODE-ONEOF-TOKEN_EXPIRED'],
    `an access token is ${statusAndCode('token_expired')} once expires_in has passed on the target's clock`,
    async (context) => {
      const clocked = clockedFor(context, lifetimes.accessTokenSeconds);
      const tokens = await clockedTokens(context, clocked);
      const useToken = () => useAccessToken(clocked, tokens);
      const first = await useToken();
      // Judged only when the first use surely came within the lifetime (a loaded machine may be slower).
      if (Date.now() - tokens.sentAt < clocked.wallMs / 2)
        expectThat(first.response.status === 200, 'status 200 with the fresh access token', first);
      await sleep(tokens.answeredAt + clocked.wallMs + marginMilliseconds - Date.now());
      const expired = await useToken();
      context.evidence('the token after its lifetime', expired);
      expectThat(
        hasStatusAndCode(expired, 'token_expired'),
        `${statusAndCode('token_expired')} after expires_in (${lifetimes.accessTokenSeconds} s of the target's clock)`,
        expired,
      );
      if (judgesInferred())
        expectThat(hasErrorType(expired, 'token_expired'), statusAndType('token_expired'), expired);
    },
  );

  check(
    ['INF-OPENAPI-COMPONENTS-HEADERS-WWWAUTHENTICATE'],
    `an expired access token's ${statusAndCode('token_expired')} carries a Bearer challenge with error="invalid_token"`,
    async (context) => {
      const clocked = clockedFor(context, lifetimes.accessTokenSeconds);
      const tokens = await clockedTokens(context, clocked);
      await sleep(tokens.answeredAt + clocked.wallMs + marginMilliseconds - Date.now());
      const expired = await useAccessToken(clocked, tokens);
      // RFC 6750 section 3.1: invalid_token covers an expired token; the spec sends it whenever a token was given.
      expectThat(
        hasStatusAndCode(expired, 'token_expired') &&
          bearerChallenge(headerOf(expired, 'www-authenticate'))?.get('error') === 'invalid_token',
        `${statusAndCode('token_expired')} with a Bearer WWW-Authenticate challenge carrying error="invalid_token"`,
        expired,
      );
    },
  );

  check(
    ['AUTH-OAUTH-REFRESH', 'INF-OPENAPI-COMPONENTS-SECURITYSCHEMES-OAUTH2-X-TOKEN-LIFETIMES-REFRESHTOKEN'],
    "the refresh token still refreshes once the access token's lifetime has passed on the target's clock, and the new access token works",
    async (context) => {
      const clocked = clockedFor(context, lifetimes.accessTokenSeconds);
      const tokens = await clockedTokens(context, clocked);
      await sleep(tokens.answeredAt + clocked.wallMs + marginMilliseconds - Date.now());
      const refreshed = tokensOf(await refreshTokens(clocked.means, tokens.refresh_token));
      const account = await send(routes.getAccount.method, routes.getAccount.url, {
        key: refreshed.access_token,
        server: clocked.apiServer,
      });
      expectThat(account.response.status === 200, 'status 200 with the new access token', account);
    },
  );

  check(
    [
      'INF-OPENAPI-COMPONENTS-SECURITYSCHEMES-OAUTH2-X-TOKEN-LIFETIMES-AUTHORIZATIONCODE',
      'INF-SCHEMAS-OAUTH-ERROR',
    ],
    "an authorization code is 400 invalid_grant once its lifetime has passed on the target's clock",
    async (context) => {
      const clocked = clockedFor(context, lifetimes.authorizationCode.lifetimeSeconds);
      const granted = await obtainCode(clocked.means, accountScope);
      // The code was issued before the redirect's answer came: its lifetime is over this long after now.
      await sleep(clocked.wallMs + marginMilliseconds);
      expectOAuthError(
        await exchangeCode(clocked.means, granted),
        400,
        'invalid_grant',
        `for a code older than ${lifetimes.authorizationCode.lifetimeSeconds} s of the target's clock`,
      );
    },
  );
});
