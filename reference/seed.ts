import { accountPlanMembers } from '../generated/types/facts.js';
import { randomBase62 } from '../runtime/random-base62.js';
import { type ApiKeyKind, apiKeyKinds, newApiKey } from './auth/api-keys.js';
import { digest } from './auth/secrets.js';
import { type Clock, isoTime } from './clock.js';
import { newId } from './services/ids.js';
import type { Store } from './storage/store.js';

export type Plan = keyof typeof accountPlanMembers;

/** The default region of accounts a local deployment creates; a setting of this service, not of the spec. */
export const localDefaultRegion = 'local-1';

export interface CreatedAccount {
  accountId: string;
  plan: Plan;
  keys: Record<ApiKeyKind, { id: string; key: string }>;
}

export async function createApiKey(store: Store, clock: Clock, accountId: string, kind: ApiKeyKind) {
  const { key, hash } = newApiKey(kind);
  const row = await store.apiKeys.insert({
    id: `key_${randomBase62(16)}`,
    accountId,
    kind,
    hash,
    status: 'active',
    createdAt: isoTime(clock),
    revokedAt: null,
  });
  return { id: row.id, key };
}

/** An account of a plan with one key of each kind; the keys are returned once, only their digests are stored. */
export async function createAccount(
  store: Store,
  clock: Clock,
  plan: Plan,
  defaultRegion: string,
): Promise<CreatedAccount> {
  return store.transaction(async (transaction) => {
    const accountId = newId('AccountId');
    await transaction.accounts.insert({ id: accountId, plan, defaultRegion, createdAt: isoTime(clock) });
    const keys = {} as Record<ApiKeyKind, { id: string; key: string }>;
    for (const kind of apiKeyKinds) keys[kind] = await createApiKey(transaction, clock, accountId, kind);
    return { accountId, plan, keys };
  });
}

export interface CreatedClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

/** A confidential client (with a secret); `createPublicOAuthClient` registers one that cannot keep a secret. */
export async function createOAuthClient(
  store: Store,
  clock: Clock,
  accountId: string,
  name: string,
  redirectUris: string[],
): Promise<CreatedClient> {
  const clientSecret = `cs_${randomBase62(32)}`;
  const clientId = await insertClient(store, clock, {
    accountId,
    name,
    redirectUris,
    secretHash: digest(clientSecret),
  });
  return { clientId, clientSecret, redirectUris };
}

/** A public client (RFC 6749 section 2.1: a browser or mobile app): no secret, so it must use PKCE. */
export async function createPublicOAuthClient(
  store: Store,
  clock: Clock,
  accountId: string,
  name: string,
  redirectUris: string[],
): Promise<{ clientId: string; redirectUris: string[] }> {
  const clientId = await insertClient(store, clock, { accountId, name, redirectUris, secretHash: null });
  return { clientId, redirectUris };
}

async function insertClient(
  store: Store,
  clock: Clock,
  client: { accountId: string; name: string; redirectUris: string[]; secretHash: string | null },
): Promise<string> {
  const clientId = `cl_${randomBase62(16)}`;
  await store.oauthClients.insert({ id: clientId, ...client, createdAt: isoTime(clock) });
  return clientId;
}

/** Clients besides the first, for a conformance run: codes and tokens must not pass from one client to another. */
export interface MoreOAuthClients {
  /** A second confidential client, with a redirect URI of its own. */
  second: CreatedClient;
  /** A public client (no secret: PKCE), with a redirect URI of its own. */
  public: { clientId: string; redirectUris: string[] };
}

/** What a first start prints: one account per plan, and an OAuth client of the free account for local testing. */
export interface SeededCredentials {
  accounts: Record<Plan, CreatedAccount>;
  oauthClient: CreatedClient;
  /** The second confidential and the public client, when asked for. */
  moreOAuthClients: MoreOAuthClients | null;
  /** More secret keys of the last plan's account (each has its own rate window), when asked for. */
  extraSecretKeys: string[];
  /** A secret key of the first plan's account, already revoked, when asked for. */
  revokedKey: string | null;
}

/** Test fixtures a first start can add for a conformance run; a normal start asks for none. */
export interface SeedExtras {
  extraSecretKeys?: number;
  revokedKey?: boolean;
  moreOAuthClients?: boolean;
}

/** The first client's redirect URI with a last path segment of its own (`…/callback` → `…/callback-second`). */
function redirectUriOf(first: string, suffix: string): string {
  const url = new URL(first);
  url.pathname = `${url.pathname.replace(/\/$/, '')}-${suffix}`;
  return url.toString();
}

export async function seedIfEmpty(
  store: Store,
  clock: Clock,
  defaultRegion: string,
  redirectUri: string,
  extras: SeedExtras = {},
): Promise<SeededCredentials | null> {
  if ((await store.accounts.list()).length > 0) return null;
  const plans = Object.keys(accountPlanMembers) as Plan[];
  const accounts = {} as Record<Plan, CreatedAccount>;
  for (const plan of plans) accounts[plan] = await createAccount(store, clock, plan, defaultRegion);
  const first = accounts[plans[0] as Plan].accountId;
  const last = accounts[plans[plans.length - 1] as Plan].accountId;
  const oauthClient = await createOAuthClient(store, clock, first, 'Local test client', [redirectUri]);
  const extraSecretKeys: string[] = [];
  for (let count = 0; count < (extras.extraSecretKeys ?? 0); count += 1) {
    extraSecretKeys.push((await createApiKey(store, clock, last, 'secret')).key);
  }
  let revokedKey: string | null = null;
  if (extras.revokedKey === true) {
    const revoked = await createApiKey(store, clock, first, 'secret');
    await store.apiKeys.revoke(revoked.id, isoTime(clock));
    revokedKey = revoked.key;
  }
  const moreOAuthClients =
    extras.moreOAuthClients === true
      ? {
          second: await createOAuthClient(store, clock, first, 'Second test client', [
            redirectUriOf(redirectUri, 'second'),
          ]),
          public: await createPublicOAuthClient(store, clock, first, 'Public test client', [
            redirectUriOf(redirectUri, 'public'),
          ]),
        }
      : null;
  return { accounts, oauthClient, moreOAuthClients, extraSecretKeys, revokedKey };
}
