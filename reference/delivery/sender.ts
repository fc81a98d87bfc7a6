import { Agent } from 'undici';
import { apiPolicies } from '../../generated/types/facts.js';
import { guardedLookup, type Resolver, systemResolver } from './guarded-lookup.js';
import { type AttemptResult, elapsedSince, failed, SendAttempt } from './send-attempt.js';
import { SendDeadlines } from './send-deadlines.js';
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
  /** The exact bytes signed (a string is sent as its UTF-8 bytes). */
  body: string | Uint8Array;
  headers: Record<string, string>;
}

export type { AttemptResult };

export interface Sender {
  send(signed: SignedRequest): Promise<AttemptResult>;
  close(): Promise<void>;
}

const receiverTimeoutMs = apiPolicies.webhookDelivery.receiver.timeoutSeconds * 1000;

/** What a URL is to the sender: refused (an IP literal the policy forbids), or where undici sends it. */
interface Target {
  refusal: string | null;
  origin: string;
  path: string;
}

/**
 * POSTs signed deliveries over one pooled undici Agent: keep-alive connections, at most `connectionsPerOrigin` per
 * receiver, every connection resolved through the target guard. Success is a 2xx status line within the timeout;
 * a 3xx is not followed (a dispatch never follows redirects); the body is read up to a small cap and dropped.
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
  const deadlines = new SendDeadlines(timeoutMs);
  // An IP literal never goes through `lookup`: it is checked before each send. The answer depends on the URL and the
  // policy only, so it is kept with the URL's parts (a parse and a BlockList check per send showed in the profile).
  const targets = new Map<string, Target>();
  function target(url: string): Target {
    let known = targets.get(url);
    if (known !== undefined) return known;
    const parsed = new URL(url);
    const literal = literalAddress(parsed);
    known = {
      refusal: literal === null ? null : addressRefusal(literal, options.policy),
      origin: parsed.origin,
      path: `${parsed.pathname}${parsed.search}`,
    };
    if (targets.size >= 1024) targets.clear();
    targets.set(url, known);
    return known;
  }
  function send(signed: SignedRequest): Promise<AttemptResult> {
    const started = performance.now();
    const { refusal, origin, path } = target(signed.url);
    if (refusal !== null)
      return Promise.resolve(failed(null, `target refused: ${refusal}`, elapsedSince(started)));
    return new Promise((resolve) => {
      const attempt = new SendAttempt(started, timeoutMs, responseCapBytes, deadlines, resolve);
      deadlines.add(attempt);
      agent.dispatch({ origin, path, method: 'POST', headers: signed.headers, body: signed.body }, attempt);
    });
  }
  // Destroy, not close: sends still in flight at stop were released and must not wait out their timeout.
  return {
    send,
    close: async () => {
      await agent.destroy();
      deadlines.clear();
    },
  };
}
