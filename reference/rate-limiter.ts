import type { Clock } from './clock.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  windowSeconds: number;
  /** Seconds until the current window ends (rounded up, at least 1 while limited). */
  resetSeconds: number;
}

/**
 * A fixed window per credential (the spec's `x-rate-limit.window`): the first request opens a window of
 * `windowSeconds`; at most `limit` requests are admitted in it. Each credential has its own window, so one key's
 * exhaustion never affects another. Memory stays bounded: expired windows are dropped as they are met.
 */
export class FixedWindowRateLimiter {
  readonly #windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly windowSeconds: number,
  ) {}

  take(credentialId: string, limit: number): RateDecision {
    const now = this.clock.now();
    const windowMilliseconds = this.windowSeconds * 1000;
    let window = this.#windows.get(credentialId);
    if (window === undefined || now - window.startedAt >= windowMilliseconds) {
      window = { startedAt: now, count: 0 };
      this.#windows.set(credentialId, window);
      this.#sweep(now, windowMilliseconds);
    }
    const allowed = window.count < limit;
    if (allowed) window.count += 1;
    const resetSeconds = Math.max(1, Math.ceil((window.startedAt + windowMilliseconds - now) / 1000));
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - window.count),
      windowSeconds: this.windowSeconds,
      resetSeconds,
    };
  }

  #sweep(now: number, windowMilliseconds: number): void {
    if (this.#windows.size < 10_000) return;
    for (const [credential, window] of this.#windows) {
      if (now - window.startedAt >= windowMilliseconds) this.#windows.delete(credential);
    }
  }
}

/** The IETF RateLimit fields and Retry-After, in the syntax of the spec's RateLimitPolicy and RateLimit headers. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'RateLimit-Policy': `"per-key";q=${decision.limit};w=${decision.windowSeconds}`,
    RateLimit: `"per-key";r=${decision.remaining};t=${decision.resetSeconds}`,
    ...(decision.allowed ? {} : { 'Retry-After': String(decision.resetSeconds) }),
  };
}
