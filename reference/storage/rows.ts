/**
 * What the service stores, as plain data. API objects are built from these by the handlers; fields that the API
 * never shows (hashes, owning account, ordering sequence) live only here. Timestamps are ISO 8601 UTC strings.
 */

export interface AccountRow {
  id: string;
  plan: string;
  defaultRegion: string;
  createdAt: string;
}

export interface ApiKeyRow {
  id: string;
  accountId: string;
  /** `secret` or `publishable` (the key types of the spec's ApiKey scheme). */
  kind: string;
  /** SHA-256 of the whole key; the key itself is shown once and never stored. */
  hash: string;
  status: 'active' | 'revoked';
  createdAt: string;
  revokedAt: string | null;
}

export interface StreamRow {
  id: string;
  accountId: string;
  title: string;
  status: string;
  quality: string;
  format: string;
  region: string;
  streamKeyHash: string;
  subscriberCount: number;
  metadata: Record<string, string>;
  startedAt: string | null;
  recordingReportId: string | null;
  createdAt: string;
}

export interface ReportRow {
  id: string;
  accountId: string;
  title: string;
  status: string;
  createdAt: string;
  /** Derived on read: the number of records of the report. */
  recordCount: number;
}

export interface RecordRow {
  id: string;
  accountId: string;
  reportId: string;
  status: string;
  source: string;
  streamId: string | null;
  title: string | null;
  samples: unknown[];
  createdAt: string;
  publishedAt: string | null;
}

/** A published record as the public feed shows it: no samples, only their count. */
export interface PublishedRecordRow {
  id: string;
  title: string | null;
  sampleCount: number;
  createdAt: string;
  publishedAt: string;
}

export interface WebhookRow {
  id: string;
  accountId: string;
  url: string;
  events: string[];
  description: string | null;
  /** Needed in clear to sign deliveries; never returned after creation. */
  signingSecret: string;
  /** After a roll, the secret that still signs beside the new one until `previousSecretExpiresAt`. */
  previousSigningSecret?: string | null;
  previousSecretExpiresAt?: string | null;
  status: string;
  createdAt: string;
}

export interface EventRow {
  id: string;
  accountId: string;
  type: string;
  /** Unix seconds. */
  created: number;
  livemode: boolean;
  data: Record<string, unknown>;
}

export interface DeliveryAttempt {
  attemptedAt: string;
  statusCode: number | null;
  error: string | null;
  /** Wall-clock milliseconds from sending to the status line or the failure. */
  durationMs: number;
}

export interface DeliveryRow {
  id: string;
  accountId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: string;
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
  createdAt: string;
}

export interface OAuthClientRow {
  id: string;
  accountId: string;
  name: string;
  /** Null for a public client (one that cannot keep a secret: it must use PKCE). */
  secretHash: string | null;
  redirectUris: string[];
  createdAt: string;
}

export interface AuthorizationCodeRow {
  codeHash: string;
  clientId: string;
  accountId: string;
  redirectUri: string;
  scope: string;
  codeChallenge: string | null;
  expiresAt: string;
  usedAt: string | null;
}

export interface RefreshTokenRow {
  tokenHash: string;
  /** Every token issued from one authorization shares a family; reuse of a spent token revokes the family. */
  familyId: string;
  clientId: string;
  accountId: string;
  scope: string;
  expiresAt: string;
  usedAt: string | null;
  revokedAt: string | null;
}

/** Where the service clock stands: scaled time = `scaledMs + (Date.now() - wallMs) * scale`. */
export interface ClockAnchor {
  wallMs: number;
  scaledMs: number;
  scale: number;
}

/** A due delivery leased to one dispatcher, with what sending it needs. */
export interface ClaimedDelivery {
  delivery: DeliveryRow;
  /** Attempts made before the current retry schedule began (a replay starts it again). */
  retryBase: number;
  /** How many times the delivery was replayed: an outcome is applied only to the generation it was claimed in. */
  generation: number;
  webhook: Pick<WebhookRow, 'url' | 'signingSecret' | 'previousSigningSecret' | 'previousSecretExpiresAt'>;
  event: EventRow;
}

/** The result of one attempt, applied only if the dispatcher that made it still holds the lease. */
export interface DeliveryOutcome {
  id: string;
  /** Null for a delivery claimed without a lease (the store's only dispatcher): applied while it is still pending. */
  claimToken: string | null;
  /** The generation claimed (ClaimedDelivery): a replay since then makes the outcome stale, and it is not applied. */
  generation: number;
  status: 'pending' | 'delivered' | 'undelivered';
  attempt: DeliveryAttempt;
  nextAttemptAt: string | null;
}

/** An API key and the account it belongs to (`null` if that account is gone), read together. */
export interface KeyWithAccount {
  key: ApiKeyRow;
  account: AccountRow | null;
}
