import { accountPlanMembers } from '../../generated/types/facts.js';
import { ApiProblem } from '../../runtime/error-envelope.js';
import type { Authenticate } from '../../runtime/fastify-routes.js';
import { authenticate, authorize, type Credential } from '../auth/authenticate.js';
import { problem } from '../problems.js';
import { rateLimitHeaders } from '../rate-limiter.js';
import { admitAddress } from './address-limit.js';
import type { ServiceDependencies } from './dependencies.js';
import { repeatedAuthorization } from './http-edges.js';

/** What handlers receive as `auth`: the credential and the plan-resolved account id. */
export type Caller = Credential;

const unauthenticated = 401;

/**
 * Authentication, the rate limit of the credential's plan, then the operation's scopes. Every request with a valid
 * credential counts against its window (the spec's x-rate-limit), so a client cannot probe for free with bad input.
 * A request without a valid credential counts against its address instead (x-rate-limit.perAddress).
 */
export function authenticateHook(dependencies: ServiceDependencies): Authenticate<Caller> {
  const identify = async (header: string | undefined) => {
    const credential = await authenticate(header, {
      findApiKey: (hash) => dependencies.store.apiKeys.findByHash(hash),
      accessTokens: dependencies.accessTokens,
    });
    const account = await dependencies.store.accounts.get(credential.accountId);
    if (account === null) throw problem('invalid_token', 'The account of this credential no longer exists.');
    return { credential, plan: accountPlanMembers[account.plan as keyof typeof accountPlanMembers] };
  };
  return async ({ request, reply, operationId, security }) => {
    // Node keeps the first of two Authorization headers; which one a proxy forwards may differ, so neither is taken.
    if (repeatedAuthorization(request))
      throw problem('request_malformed', 'Send one Authorization header; this request has several.');
    let identified: Awaited<ReturnType<typeof identify>>;
    try {
      identified = await identify(request.headers.authorization);
    } catch (error) {
      if (!(error instanceof ApiProblem) || error.status !== unauthenticated) throw error;
      await admitAddress(dependencies.addressLimit, request);
      throw error;
    }
    const { credential, plan } = identified;
    const decision = await dependencies.rateLimiter.take(credential.rateLimitKey, plan.requestsPerMinute);
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      throw problem(
        'rate_limited',
        `Too many requests; retry after ${decision.resetSeconds} seconds.`,
        undefined,
        headers,
      );
    }
    reply.headers(headers);
    const alternatives = security.flatMap((requirement) => requirement.schemes);
    authorize(credential, alternatives, `call ${operationId}`);
    return credential;
  };
}
