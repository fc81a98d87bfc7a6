import { LRUCache } from 'lru-cache';
import type { AccountRow, ApiKeyRow } from './rows.js';
import type { Store } from './store.js';

/** Entries per cache (ADR 0014): every active key of a large deployment fits; a flood of unknown keys cannot grow it. */
export const defaultCacheEntries = 10_000;

export interface StoreCaches {
  keysByHash: LRUCache<string, ApiKeyRow | { unknown: true }>;
  accounts: LRUCache<string, AccountRow | { unknown: true }>;
}

const unknown = { unknown: true } as const;
const isUnknown = (entry: object): entry is { unknown: true } => 'unknown' in entry;

/** `ttlMilliseconds` bounds how long an entry may outlive a change announced to no one (several nodes, ADR 0023). */
export function newStoreCaches(maxEntries = defaultCacheEntries, ttlMilliseconds = 0): StoreCaches {
  const options = ttlMilliseconds > 0 ? { max: maxEntries, ttl: ttlMilliseconds } : { max: maxEntries };
  return { keysByHash: new LRUCache(options), accounts: new LRUCache(options) };
}

/** A change to cached rows, which other nodes' caches must drop too. */
export type CacheChange = { apiKeyId: string } | { apiKeyHash: string } | { accountId: string };

/** Drops what a change makes stale: a key by id (and every remembered unknown hash), a key hash, an account. */
export function forgetChange(caches: StoreCaches, change: CacheChange): void {
  if ('apiKeyHash' in change) caches.keysByHash.delete(change.apiKeyHash);
  else if ('accountId' in change) caches.accounts.delete(change.accountId);
  else
    for (const [hash, entry] of caches.keysByHash.entries())
      if (isUnknown(entry) || entry.id === change.apiKeyId) caches.keysByHash.delete(hash);
}

/** The cached row (or remembered absence), else the store's, which is remembered either way. */
async function readThrough<Row extends object>(
  cache: LRUCache<string, Row | { unknown: true }>,
  key: string,
  load: (key: string) => Promise<Row | null>,
): Promise<Row | null> {
  const cached = cache.get(key);
  if (cached !== undefined) return isUnknown(cached) ? null : cached;
  const row = await load(key);
  cache.set(key, row ?? unknown);
  return row;
}

/**
 * Every authenticated request looks up its key and its account; with the embedded database, which one process owns
 * (the data-directory lock), those lookups can be served from memory. Every write to keys or accounts goes through
 * this same store, so it drops the entries it changes: rolling or revoking a key still takes effect at once.
 * Both caches are LRU-bounded, so random keys in `Authorization` headers cost a bounded amount of memory.
 * With PostgreSQL only where other nodes hear of changes: `announce` tells them (after the commit, inside a
 * transaction), and a TTL on the caches bounds what a lost announcement costs (ADR 0023).
 */
export function cachedStore(
  store: Store,
  caches: StoreCaches = newStoreCaches(),
  announce: (change: CacheChange) => void = () => {},
): Store {
  const changed = (change: CacheChange) => {
    forgetChange(caches, change);
    announce(change);
  };
  const findByHash = (hash: string) =>
    readThrough(caches.keysByHash, hash, (key) => store.apiKeys.findByHash(key));
  const getAccount = (id: string) => readThrough(caches.accounts, id, (key) => store.accounts.get(key));
  return {
    ...store,
    apiKeys: {
      ...store.apiKeys,
      findByHash,
      // From the caches when they hold the key; otherwise one read of both, which fills them.
      async findWithAccount(hash) {
        const cachedKey = caches.keysByHash.get(hash);
        if (cachedKey !== undefined)
          return isUnknown(cachedKey)
            ? null
            : { key: cachedKey, account: await getAccount(cachedKey.accountId) };
        const found = await store.apiKeys.findWithAccount(hash);
        caches.keysByHash.set(hash, found?.key ?? unknown);
        if (found !== null) caches.accounts.set(found.key.accountId, found.account ?? unknown);
        return found;
      },
      async insert(row) {
        changed({ apiKeyHash: row.hash });
        return store.apiKeys.insert(row);
      },
      async revoke(id, revokedAt) {
        forgetChange(caches, { apiKeyId: id });
        const revoked = await store.apiKeys.revoke(id, revokedAt);
        changed({ apiKeyId: id });
        return revoked;
      },
    },
    accounts: {
      ...store.accounts,
      get: getAccount,
      async insert(row) {
        changed({ accountId: row.id });
        return store.accounts.insert(row);
      },
    },
    async transaction(work) {
      const pending: CacheChange[] = [];
      const result = await store.transaction((inner) =>
        work(cachedStore(inner, caches, (c) => pending.push(c))),
      );
      for (const change of pending) changed(change);
      return result;
    },
  };
}
