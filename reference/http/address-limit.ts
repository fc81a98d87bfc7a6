import { isIPv6 } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { apiPolicies } from '../../generated/types/facts.js';
import { problem } from '../problems.js';
import type { PeekableRateLimiter, RateDecision } from '../rate-limiter.js';

/**
 * The spec's `x-rate-limit.perAddress`: traffic without a valid credential (none, unknown, revoked, failed client
 * authentication, guessed codes) and public feeds count per client address, in windows of their own, so a valid
 * key's window is never touched and a flood of bad requests is refused with 429 (ADR 0014). In process, or in Redis
 * with several nodes, so an address gets its window once behind a balancer, not once per node (ADR 0023).
 */
export interface AddressLimit {
  limiter: PeekableRateLimiter;
  requestsPerWindow: number;
}

export const defaultAddressRequestsPerWindow: number = apiPolicies.rateLimit.perAddress.requestsPerWindow;

/**
 * The window key of a request's address. `request.ip` follows Fastify's `trustProxy` (TELEMETRY_TRUST_PROXY), so it
 * is the client behind a trusted load balancer. An IPv6 client usually holds a whole /64, so the /64 is one client.
 */
export function addressKey(request: FastifyRequest): string {
  const address = request.ip;
  if (!isIPv6(address) || address.startsWith('::ffff:')) return `address:${address}`;
  const groups = expandIPv6(address);
  return `address:${groups.slice(0, 4).join(':')}::/64`;
}

function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array.from({ length: missing }, () => '0'), ...right];
}

/** Counts one request of `request`'s address; the decision says whether it is still admitted. */
export async function countAddress(limit: AddressLimit, request: FastifyRequest): Promise<RateDecision> {
  return limit.limiter.take(addressKey(request), limit.requestsPerWindow);
}

/** Whether `request`'s address already used its window up, without counting this request. */
export async function addressRefused(
  limit: AddressLimit,
  request: FastifyRequest,
): Promise<RateDecision | null> {
  const decision = await limit.limiter.peek(addressKey(request), limit.requestsPerWindow);
  return decision.allowed ? null : decision;
}

export function addressRefusalMessage(decision: RateDecision): string {
  return `Too many requests without a valid credential from this address; retry after ${decision.resetSeconds} seconds.`;
}

export function newAddressLimit(
  limiter: PeekableRateLimiter,
  requestsPerWindow = defaultAddressRequestsPerWindow,
): AddressLimit {
  return { limiter, requestsPerWindow };
}

/** Counts one request of `request`'s address and throws the envelope's 429 once its window is used up. */
export async function admitAddress(limit: AddressLimit, request: FastifyRequest): Promise<void> {
  const decision = await countAddress(limit, request);
  if (decision.allowed) return;
  throw problem('rate_limited', addressRefusalMessage(decision), undefined, {
    'Retry-After': String(decision.resetSeconds),
  });
}
