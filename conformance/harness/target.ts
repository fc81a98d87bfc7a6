import { readFileSync } from 'node:fs';
import type { Profile } from '../catalogue/requirement.js';

/** What the suite is pointed at, resolved once by the CLI and handed to the check workers as a JSON file. */
export interface TargetDescription {
  /** The embedded reference started by the CLI (no target given). */
  embedded: boolean;
  profile: Profile;
  baseUrl: string;
  authUrl: string | null;
  mqttUrl: string | null;
  wsUrl: string | null;
  /** A public URL at which the deployment can reach the suite's webhook receiver; null: the receiver's own address. */
  webhookPublicUrl: string | null;
  /** Where the receiver listens (port 0: a free one); null when the target cannot reach it (webhook checks skip). */
  webhookListen: { host: string; port: number } | null;
  /** How many times faster than the wall clock the target's clock runs (retry delays, token expiry). */
  timeScale: number;
  /** Wait out long schedules in real time (--slow). */
  slow: boolean;
  /** The p99 publish-to-receive latency allowed at the top sample rate. */
  latencyP99Milliseconds: number;
  /**
   * The embedded default only: a second reference whose clock runs fast, for the checks that wait on the service's
   * clock (the 10 h retry schedule, token expiry). Null: those checks use the target itself at `timeScale`.
   */
  fastClock: FastClockTarget | null;
  keys: {
    freeSecret: string | null;
    paidSecret: string | null;
    /** More secret keys of the paid key's account: general checks spread over them to stay inside each key's window. */
    paidSecretExtras: string[];
    publishable: string | null;
    revoked: string | null;
  };
  oauth: OAuthClientInput | null;
  /** A second confidential client of the deployment: codes and refresh tokens must not pass between clients. */
  oauthSecondClient: OAuthClientInput | null;
  /** A public client of the deployment (no secret; PKCE), when it registers such clients. */
  oauthPublicClient: { clientId: string; redirectUri: string } | null;
  /** The embedded reference grants consent at GET /oauth/authorize for a login_hint account. */
  autoApproveConsent: boolean;
  /** The paid key's account id, for auto-approved consent. */
  paidAccountId: string | null;
}

/** An OAuth client the suite may act as: its id, its secret and one of its registered redirect URIs. */
export interface OAuthClientInput {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** A target on a fast clock: its URLs, one paid secret key, and its OAuth client (consent granted by login_hint). */
export interface FastClockTarget {
  baseUrl: string;
  authUrl: string | null;
  mqttUrl: string | null;
  wsUrl: string | null;
  paidSecret: string;
  /** The paid key's account, whose consent the fast reference grants at GET for a login_hint. */
  paidAccountId: string;
  oauth: OAuthClientInput | null;
  timeScale: number;
}

export const targetFileVariable = 'CONFORMANCE_TARGET_FILE';

let cached: TargetDescription | null = null;

/** In a check worker: the target the CLI resolved. */
export function currentTarget(): TargetDescription {
  if (cached !== null) return cached;
  const file = process.env[targetFileVariable];
  if (file === undefined)
    throw new Error(`${targetFileVariable} is not set: run the checks through npm run conformance`);
  cached = JSON.parse(readFileSync(file, 'utf8')) as TargetDescription;
  return cached;
}
