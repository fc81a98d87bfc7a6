// Copied by `npm run generate` from runtime/http/retry.ts. Do not edit: change runtime/ and regenerate.

/**
 * When a failed request is sent again, and after how long. 429 is retried for every method because the service did
 * not process the request; a 5xx or a lost connection only for idempotent methods, where a second attempt cannot do
 * the work twice.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Backoff of the first retry before jitter; doubled for each further retry. */
  baseDelayMs: number;
  /** Ceiling of the exponential backoff. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited out: the error is raised instead. */
  maxRetryAfterMs: number;
  /** Uniform in [0, 1); injectable so tests can pin the jitter. */
  random: () => number;
  sleep: (milliseconds: number, signal: AbortSignal) => Promise<void>;
  now: () => number;
}

const idempotentMethods = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
// Not Implemented and HTTP Version Not Supported do not change on a second attempt.
const permanentServerErrors = new Set([501, 505]);

export function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
  sleep,
  now: Date.now,
};

/** A response status (or `null` for a request that got no response) is worth another attempt. */
export function isRetryable(method: string, status: number | null): boolean {
  if (status === 429) return true;
  const serverFailure = status === null || (status >= 500 && !permanentServerErrors.has(status));
  return serverFailure && idempotentMethods.has(method.toUpperCase());
}

/** Retry-After as delay-seconds or an HTTP-date (RFC 9110 section 10.2.3); null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null || header.trim() === '') return null;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Exponential backoff with full jitter: uniform in [0, min(max, base × 2^(retry − 1))). */
export function backoffMs(retry: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'random'>) {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(policy.random() * ceiling);
}

/**
 * How long to wait before attempt `attempt + 1`, or null to give up: the answer is not retryable, attempts are spent,
 * or the service asked for a longer wait than the policy accepts.
 */
export function retryDelay(
  method: string,
  attempt: number,
  response: { status: number; retryAfter: string | null } | null,
  policy: RetryPolicy,
): number | null {
  if (attempt >= policy.maxAttempts || !isRetryable(method, response?.status ?? null)) return null;
  const requested = retryAfterMs(response?.retryAfter ?? null, policy.now());
  if (requested === null) return backoffMs(attempt, policy);
  return requested > policy.maxRetryAfterMs ? null : requested;
}
