import type { AccountRow, ApiKeyRow } from './rows.js';
import type { Store } from './store.js';

interface Caches {
  keysByHash: Map<string, ApiKeyRow | null>;
  accounts: Map<string, AccountRow | null>;
}

/**
 * Every authenticated request looks up its key and its account; with the embedded database, which one process owns
 * (the data-directory lock), those lookups can be served from memory. Every write to keys or accounts goes through
 * this same store, so it drops the entries it changes: rolling or revoking a key still takes effect at once.
 * Not for PostgreSQL, where another node may revoke a key.
 */
export function cachedStore(
  store: Store,
  caches: Caches = { keysByHash: new Map(), accounts: new Map() },
): Store {
  const forgetKey = (id: string) => {
    for (const [hash, row] of caches.keysByHash)
      if (row === null || row.id === id) caches.keysByHash.delete(hash);
  };
  return {
    ...store,
    apiKeys: {
      ...store.apiKeys,
      async findByHash(hash) {
        if (caches.keysByHash.has(hash)) return caches.keysByHash.get(hash) ?? null;
        const row = await store.apiKeys.findByHash(hash);
        caches.keysByHash.set(hash, row);
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
        if (caches.accounts.has(id)) return caches.accounts.get(id) ?? null;
        const row = await store.accounts.get(id);
        caches.accounts.set(id, row);
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
