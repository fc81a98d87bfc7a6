import { accountPlanMembers } from '../../generated/types/facts.js';
import type { Authenticate } from '../../runtime/fastify-routes.js';
import { authenticate, authorize, type Credential } from '../auth/authenticate.js';
import { problem } from '../problems.js';
import { rateLimitHeaders } from '../rate-limiter.js';
import type { ServiceDependencies } from './dependencies.js';

/** What handlers receive as `auth`: the credential and the plan-resolved account id. */
export type Caller = Credential;

/**
 * Authentication, the rate limit of the credential's plan, then the operation's scopes. Every request with a valid
 * credential counts against its window (the spec's x-rate-limit), so a client cannot probe for free with bad input.
 */
export function authenticateHook(dependencies: ServiceDependencies): Authenticate<Caller> {
  return async ({ request, reply, operationId, security }) => {
    const credential = await authenticate(request.headers.authorization, {
      findApiKey: (hash) => dependencies.store.apiKeys.findByHash(hash),
      accessTokens: dependencies.accessTokens,
    });
    const account = await dependencies.store.accounts.get(credential.accountId);
    if (account === null) throw problem('invalid_token', 'The account of this credential no longer exists.');
    const plan = accountPlanMembers[account.plan as keyof typeof accountPlanMembers];
    const decision = dependencies.rateLimiter.take(credential.rateLimitKey, plan.requestsPerMinute);
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
