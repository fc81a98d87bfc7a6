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
  /** A public URL at which the deployment can reach the suite's webhook receiver. */
  webhookPublicUrl: string | null;
  keys: {
    freeSecret: string | null;
    paidSecret: string | null;
    /** More secret keys of the paid key's account: general checks spread over them to stay inside each key's window. */
    paidSecretExtras: string[];
    publishable: string | null;
    revoked: string | null;
  };
  oauth: { clientId: string; clientSecret: string; redirectUri: string } | null;
  /** The embedded reference grants consent at GET /oauth/authorize for a login_hint account. */
  autoApproveConsent: boolean;
  /** The paid key's account id, for auto-approved consent. */
  paidAccountId: string | null;
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
