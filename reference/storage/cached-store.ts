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

export function newStoreCaches(maxEntries = defaultCacheEntries): StoreCaches {
  return { keysByHash: new LRUCache({ max: maxEntries }), accounts: new LRUCache({ max: maxEntries }) };
}

/**
 * Every authenticated request looks up its key and its account; with the embedded database, which one process owns
 * (the data-directory lock), those lookups can be served from memory. Every write to keys or accounts goes through
 * this same store, so it drops the entries it changes: rolling or revoking a key still takes effect at once.
 * Both caches are LRU-bounded, so random keys in `Authorization` headers cost a bounded amount of memory.
 * Not for PostgreSQL, where another node may revoke a key.
 */
export function cachedStore(store: Store, caches: StoreCaches = newStoreCaches()): Store {
  const forgetKey = (id: string) => {
    for (const [hash, entry] of caches.keysByHash.entries())
      if (isUnknown(entry) || entry.id === id) caches.keysByHash.delete(hash);
  };
  return {
    ...store,
    apiKeys: {
      ...store.apiKeys,
      async findByHash(hash) {
        const cached = caches.keysByHash.get(hash);
        if (cached !== undefined) return isUnknown(cached) ? null : cached;
        const row = await store.apiKeys.findByHash(hash);
        caches.keysByHash.set(hash, row ?? unknown);
        return row;
      },
      async insert(row) {
        caches.keysByHash.delete(row.hash);
        return store.apiKeys.insert(row);
      },
      async revoke(id, revokedAt) {
        forgetKey(id);
        return store.apiKeys.revoke(id, revokedAt);
      },
    },
    accounts: {
      ...store.accounts,
      async get(id) {
        const cached = caches.accounts.get(id);
        if (cached !== undefined) return isUnknown(cached) ? null : cached;
        const row = await store.accounts.get(id);
        caches.accounts.set(id, row ?? unknown);
        return row;
      },
      async insert(row) {
        caches.accounts.delete(row.id);
        return store.accounts.insert(row);
      },
    },
    transaction: (work) => store.transaction((inner) => work(cachedStore(inner, caches))),
  };
}
