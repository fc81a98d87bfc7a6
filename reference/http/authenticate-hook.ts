import { accountPlanMembers } from '../../generated/types/facts.js';
import { ApiProblem } from '../../runtime/error-envelope.js';
import type { Authenticate } from '../../runtime/fastify-routes.js';
import { authenticate, authorize, type Credential, type CredentialSources } from '../auth/authenticate.js';
import { problem } from '../problems.js';
import { rateLimitHeaders, setRateLimitHeaders } from '../rate-limiter.js';
import type { AccountRow } from '../storage/rows.js';
import { admitAddress } from './address-limit.js';
import type { ServiceDependencies } from './dependencies.js';
import { repeatedAuthorization } from './http-edges.js';

/** What handlers receive as `auth`: the credential and its account, read once per request. */
export type Caller = Credential & { account: AccountRow };

const unauthenticated = 401;

/**
 * Authentication, the rate limit of the credential's plan, then the operation's scopes. Every request with a valid
 * credential counts against its window (the spec's x-rate-limit), so a client cannot probe for free with bad input.
 * A request without a valid credential counts against its address instead (x-rate-limit.perAddress).
 */
export function authenticateHook(dependencies: ServiceDependencies): Authenticate<Caller> {
  const sources: CredentialSources = {
    // The key and its account in one read: on PostgreSQL, one round trip fewer per request.
    findApiKey: (hash) => dependencies.store.apiKeys.findWithAccount(hash),
    accessTokens: dependencies.accessTokens,
  };
  /** The caller's account: read with an API key already; an access token's is read now. */
  const withAccount = async (credential: Credential): Promise<Caller> =>
    callerOf(credential, await dependencies.store.accounts.get(credential.accountId));
  return async ({ request, reply, operationId, security }) => {
    // Node keeps the first of two Authorization headers; which one a proxy forwards may differ, so neither is taken.
    if (repeatedAuthorization(request))
      throw problem('request_malformed', 'Send one Authorization header; this request has several.');
    let caller: Caller;
    try {
      const credential = await authenticate(request.headers.authorization, sources);
      caller =
        credential.account !== undefined
          ? callerOf(credential, credential.account)
          : await withAccount(credential);
    } catch (error) {
      if (!(error instanceof ApiProblem) || error.status !== unauthenticated) throw error;
      await admitAddress(dependencies.addressLimit, request);
      throw error;
    }
    const plan = accountPlanMembers[caller.account.plan as keyof typeof accountPlanMembers];
    const taken = dependencies.rateLimiter.take(caller.rateLimitKey, plan.requestsPerMinute);
    // The in-process limiter decides synchronously: no await (and no turn of the microtask queue) then.
    const decision = taken instanceof Promise ? await taken : taken;
    if (!decision.allowed) {
      throw problem(
        'rate_limited',
        `Too many requests; retry after ${decision.resetSeconds} seconds.`,
        undefined,
        rateLimitHeaders(decision),
      );
    }
    setRateLimitHeaders(reply, decision);
    // A secret key holds every scope: nothing to compare (or to build the message of).
    if (caller.scopes !== 'all') {
      const alternatives = security.flatMap((requirement) => requirement.schemes);
      authorize(caller.kind, caller.scopes, alternatives, `call ${operationId}`);
    }
    return caller;
  };
}

/** A literal: a spread with a field added is copied far more slowly, and this runs on every request. */
function callerOf(credential: Credential, account: AccountRow | null): Caller {
  if (account === null) throw problem('invalid_token', 'The account of this credential no longer exists.');
  return {
    accountId: credential.accountId,
    kind: credential.kind,
    scopes: credential.scopes,
    rateLimitKey: credential.rateLimitKey,
    account,
  };
}
