import { randomUUID } from 'node:crypto';
import type {
  AuthorizationCodeRow,
  DeliveryRow,
  EventRow,
  OAuthClientRow,
  RecordRow,
  RefreshTokenRow,
  StreamRow,
  WebhookRow,
} from '../rows.js';
import type { Store } from '../store.js';

/** Ids unique across test runs, so one database serves every test of a suite. */
export const uniqueId = (prefix: string): string => `${prefix}_${randomUUID().replaceAll('-', '')}`;

/** A timestamp `minutes` after a fixed instant, in the form the store returns (ISO 8601 with milliseconds). */
export const at = (minutes: number): string =>
  new Date(Date.UTC(2030, 0, 1) + minutes * 60_000).toISOString();

export async function newAccount(store: Store): Promise<string> {
  const account = { id: uniqueId('acct'), plan: 'free', defaultRegion: 'eu-west', createdAt: at(0) };
  return (await store.accounts.insert(account)).id;
}

export const streamRow = (accountId: string, overrides: Partial<StreamRow> = {}): StreamRow => ({
  id: uniqueId('str'),
  accountId,
  title: 'Line 3 vibration',
  status: 'idle',
  quality: 'standard',
  format: 'json',
  region: 'eu-west',
  streamKeyHash: uniqueId('hash'),
  subscriberCount: 0,
  metadata: { line: '3' },
  startedAt: null,
  recordingReportId: null,
  createdAt: at(1),
  ...overrides,
});

export const reportRow = (accountId: string, overrides: { status?: string; createdAt?: string } = {}) => ({
  id: uniqueId('rep'),
  accountId,
  title: 'Shift report',
  status: 'draft',
  createdAt: at(2),
  ...overrides,
});

export const recordRow = (
  accountId: string,
  reportId: string,
  overrides: Partial<RecordRow> = {},
): RecordRow => ({
  id: uniqueId('rec'),
  accountId,
  reportId,
  status: 'draft',
  source: 'manual',
  streamId: null,
  title: 'Spike at 10:02',
  samples: [
    { t: 0, v: 1.5 },
    { t: 1, v: [1, 2] },
  ],
  createdAt: at(3),
  publishedAt: null,
  ...overrides,
});

export const webhookRow = (accountId: string, overrides: Partial<WebhookRow> = {}): WebhookRow => ({
  id: uniqueId('wh'),
  accountId,
  url: 'https://hooks.example.com/telemetry',
  events: ['device.online', 'device.offline'],
  description: null,
  signingSecret: uniqueId('whsec'),
  status: 'active',
  createdAt: at(4),
  ...overrides,
});

export const eventRow = (accountId: string, overrides: Partial<EventRow> = {}): EventRow => ({
  id: uniqueId('evt'),
  accountId,
  type: 'device.online',
  created: 1_893_456_000,
  livemode: false,
  data: { object: { id: 'str_1', nested: [1, { deep: true }] } },
  ...overrides,
});

export const deliveryRow = (
  event: EventRow,
  webhookId: string,
  overrides: Partial<DeliveryRow> = {},
): DeliveryRow => ({
  id: uniqueId('dlv'),
  accountId: event.accountId,
  webhookId,
  eventId: event.id,
  eventType: event.type,
  status: 'pending',
  attempts: [],
  nextAttemptAt: null,
  createdAt: at(5),
  ...overrides,
});

export const oauthClientRow = (accountId: string): OAuthClientRow => ({
  id: uniqueId('cli'),
  accountId,
  name: 'Dashboard',
  secretHash: uniqueId('hash'),
  redirectUris: ['https://app.example.com/callback', 'http://127.0.0.1:8080/cb'],
  createdAt: at(6),
});

export const authorizationCodeRow = (client: OAuthClientRow): AuthorizationCodeRow => ({
  codeHash: uniqueId('code'),
  clientId: client.id,
  accountId: client.accountId,
  redirectUri: 'https://app.example.com/callback',
  scope: 'streams:read',
  codeChallenge: null,
  expiresAt: at(16),
  usedAt: null,
});

export const refreshTokenRow = (client: OAuthClientRow, familyId: string): RefreshTokenRow => ({
  tokenHash: uniqueId('rt'),
  familyId,
  clientId: client.id,
  accountId: client.accountId,
  scope: 'streams:read',
  expiresAt: at(60 * 24 * 30),
  usedAt: null,
  revokedAt: null,
});
