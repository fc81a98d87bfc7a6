import { Agent, request } from 'undici';
import { apiPolicies } from '../../generated/types/facts.js';
import { describeFailure } from './attempt-failure.js';
import { guardedLookup, type Resolver, systemResolver } from './guarded-lookup.js';
import { addressRefusal, literalAddress, type TargetPolicy } from './target-address.js';

export interface SenderOptions {
  policy: TargetPolicy;
  resolver?: Resolver;
  /** Open connections per receiver origin; a slow receiver holds at most these. */
  connectionsPerOrigin?: number;
  /** Defaults to the spec's receiver timeout; tests of hanging receivers pass less. */
  timeoutMs?: number;
  /** Bytes of a response body read before it is dropped. */
  responseCapBytes?: number;
  /** Certificate authorities to trust besides the system's (a test's own). */
  ca?: string;
}

export interface SignedRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface AttemptResult {
  /** A 2xx status line arrived within the timeout. */
  delivered: boolean;
  statusCode: number | null;
  /** Why it failed; null when delivered. */
  error: string | null;
  durationMs: number;
}

export interface Sender {
  send(signed: SignedRequest): Promise<AttemptResult>;
  close(): Promise<void>;
}

const receiverTimeoutMs = apiPolicies.webhookDelivery.receiver.timeoutSeconds * 1000;

/**
 * POSTs signed deliveries over one pooled undici Agent: keep-alive connections, at most `connectionsPerOrigin` per
 * receiver, every connection resolved through the target guard. Success is a 2xx status line within the timeout;
 * a 3xx is not followed (undici's request never follows redirects); the body is read up to a small cap and dropped.
 */
export function createSender(options: SenderOptions): Sender {
  const timeoutMs = options.timeoutMs ?? receiverTimeoutMs;
  const responseCapBytes = options.responseCapBytes ?? 4096;
  const agent = new Agent({
    connections: options.connectionsPerOrigin ?? 16,
    keepAliveTimeout: 10_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: {
      timeout: timeoutMs,
      lookup: guardedLookup(options.policy, options.resolver ?? systemResolver),
      ...(options.ca === undefined ? {} : { ca: options.ca }),
    },
  });
  // An IP literal never goes through `lookup`: it is checked before each send. The answer depends on the URL and the
  // policy only, so it is kept (a parse and a BlockList check per send showed in the delivery profile).
  const refusals = new Map<string, string | null>();
  function literalRefusal(url: string): string | null {
    let refusal = refusals.get(url);
    if (refusal !== undefined) return refusal;
    const literal = literalAddress(new URL(url));
    refusal = literal === null ? null : addressRefusal(literal, options.policy);
    if (refusals.size >= 1024) refusals.clear();
    refusals.set(url, refusal);
    return refusal;
  }
  async function send(signed: SignedRequest): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const refusal = literalRefusal(signed.url);
    if (refusal !== null) return failed(null, `target refused: ${refusal}`, elapsed());
    try {
      const response = await request(signed.url, {
        method: 'POST',
        dispatcher: agent,
        headers: signed.headers,
        body: signed.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const durationMs = elapsed();
      await drain(response.body, responseCapBytes);
      const status = response.statusCode;
      if (status >= 200 && status < 300)
        return { delivered: true, statusCode: status, error: null, durationMs };
      const reason = status >= 300 && status < 400 ? `redirect ${status} not followed` : `status ${status}`;
      return failed(status, reason, durationMs);
    } catch (error) {
      return failed(null, describeFailure(error, timeoutMs), elapsed());
    }
  }
  // Destroy, not close: sends still in flight at stop were released and must not wait out their timeout.
  return { send, close: () => agent.destroy() };
}

function failed(statusCode: number | null, error: string, durationMs: number): AttemptResult {
  return { delivered: false, statusCode, error, durationMs };
}

/**
 * Reads up to `cap` bytes and drops the rest by destroying the body (and its connection) rather than reading 1 GB.
 * undici's dump does exactly that without an async iterator per response (the iterator showed in the profile).
 */
async function drain(
  body: { dump(options: { limit: number }): Promise<unknown> },
  cap: number,
): Promise<void> {
  try {
    await body.dump({ limit: cap });
  } catch {
    // The status line decided the attempt; a body cut short afterwards changes nothing.
  }
}
