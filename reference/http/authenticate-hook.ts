import type { FastifyRequest } from 'fastify';
import { accountPlanMembers } from '../../generated/types/facts.js';
import { ApiProblem } from '../../runtime/error-envelope.js';
import type { Authenticate, AuthenticateContext } from '../../runtime/fastify-routes.js';
import { authenticate, authorize, type Credential, type CredentialSources } from '../auth/authenticate.js';
import { problem } from '../problems.js';
import { type RateDecision, rateLimitHeaders, setRateLimitHeaders } from '../rate-limiter.js';
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
  const callerWithAccount = (credential: Credential): Caller | Promise<Caller> =>
    credential.account !== undefined
      ? callerOf(credential, credential.account)
      : dependencies.store.accounts
          .get(credential.accountId)
          .then((account) => callerOf(credential, account));
  /** A request without a valid credential counts against its address; other failures are thrown as they are. */
  const refused = async (error: unknown, request: FastifyRequest): Promise<never> => {
    if (error instanceof ApiProblem && error.status === unauthenticated)
      await admitAddress(dependencies.addressLimit, request);
    throw error;
  };
  /** The credential's window counted, then the operation's scopes: the rest of the checks once the caller is known. */
  const admitted = (caller: Caller, context: AuthenticateContext): Caller | Promise<Caller> => {
    const plan = accountPlanMembers[caller.account.plan as keyof typeof accountPlanMembers];
    const taken = dependencies.rateLimiter.take(caller.rateLimitKey, plan.requestsPerMinute);
    return taken instanceof Promise
      ? taken.then((decision) => withinWindow(caller, decision, context))
      : withinWindow(caller, taken, context);
  };
  // Without a promise from end to end when the store holds the key and the limiter is in process (the usual request:
  // issue 16); a step that must wait (a key read from the database, Redis's window, an access token) makes the rest a
  // promise from there on.
  return (context) => {
    const { request } = context;
    // Node keeps the first of two Authorization headers; which one a proxy forwards may differ, so neither is taken.
    if (repeatedAuthorization(request))
      throw problem('request_malformed', 'Send one Authorization header; this request has several.');
    let caller: Caller | Promise<Caller>;
    try {
      const credential = authenticate(request.headers.authorization, sources);
      caller =
        credential instanceof Promise ? credential.then(callerWithAccount) : callerWithAccount(credential);
    } catch (error) {
      return refused(error, request);
    }
    return caller instanceof Promise
      ? caller.then(
          (known) => admitted(known, context),
          (error: unknown) => refused(error, request),
        )
      : admitted(caller, context);
  };
}

/** Throws the refusal of a used-up window; otherwise sets its fields on the reply and checks the scopes. */
function withinWindow(caller: Caller, decision: RateDecision, context: AuthenticateContext): Caller {
  const { reply, operationId, security } = context;
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
