import { LRUCache } from 'lru-cache';
import type { AccountRow, ApiKeyRow } from './rows.js';
import type { Store } from './store.js';

/** Entries per cache (ADR 0014): every active key of a large deployment fits; a flood of unknown keys cannot grow it. */
export const defaultCacheEntries = 10_000;

export interface StoreCaches {
  keysByHash: LRUCache<string, ApiKeyRow | { unknown: true }>;
  accounts: LRUCache<string, AccountRow | { unknown: true }>;
  /**
   * Counts what was dropped. A read fills a cache only if nothing was dropped while it ran: a change committed after
   * the read's snapshot and heard before its answer would otherwise be undone by the stale row it brings back.
   */
  generation: number;
}

const unknown = { unknown: true } as const;
const isUnknown = (entry: object): entry is { unknown: true } => 'unknown' in entry;

/** `ttlMilliseconds` bounds how long an entry may outlive a change announced to no one (several nodes, ADR 0023). */
export function newStoreCaches(maxEntries = defaultCacheEntries, ttlMilliseconds = 0): StoreCaches {
  const options = ttlMilliseconds > 0 ? { max: maxEntries, ttl: ttlMilliseconds } : { max: maxEntries };
  return { keysByHash: new LRUCache(options), accounts: new LRUCache(options), generation: 0 };
}

/** A change to cached rows, which other nodes' caches must drop too. */
export type CacheChange = { apiKeyId: string } | { apiKeyHash: string } | { accountId: string };

/** Drops what a change makes stale: a key by id (and every remembered unknown hash), a key hash, an account. */
export function forgetChange(caches: StoreCaches, change: CacheChange): void {
  caches.generation += 1;
  if ('apiKeyHash' in change) caches.keysByHash.delete(change.apiKeyHash);
  else if ('accountId' in change) caches.accounts.delete(change.accountId);
  else
    for (const [hash, entry] of caches.keysByHash.entries())
      if (isUnknown(entry) || entry.id === change.apiKeyId) caches.keysByHash.delete(hash);
}

/** Drops everything (changes may have been missed). */
export function clearCaches(caches: StoreCaches): void {
  caches.generation += 1;
  caches.keysByHash.clear();
  caches.accounts.clear();
}

/**
 * Whether the caches hear of every change, and a way to wait until this process heard its own. Without one (the
 * embedded store, whose only writer is this process) the caches are always trusted and nothing is waited for.
 */
export interface ChangeWitness {
  /** false while changes made elsewhere may go unheard: the caches are then neither read nor filled. */
  readonly trusted: boolean;
  /** Called before a write; `heard()` resolves once the change came back from the database, or after a bounded wait. */
  expect(change: CacheChange): { heard(): Promise<void>; cancel(): void };
}

const soleWriter: ChangeWitness = {
  trusted: true,
  expect: () => ({ heard: async () => {}, cancel: () => {} }),
};

/** How a wrapped write reports its changes: at once after the write, or (inside a transaction) after the commit. */
type RecordChanges = <T>(
  changes: CacheChange[],
  write: () => Promise<T>,
  wroteAnything?: (result: T) => boolean,
) => Promise<T>;
type Echo = ReturnType<ChangeWitness['expect']>;

/**
 * Every authenticated request looks up its key and its account; those lookups are served from memory where this
 * process hears of every change: the embedded database, which one process owns (the data-directory lock), and
 * PostgreSQL with a `witness` listening to the database's notifications (ADR 0022) or Redis announcements (ADR 0023).
 * Writes through this store drop the entries they change before and after the write, and return once `witness`
 * heard them back (other processes hear them at about that time). Both caches are LRU-bounded; a TTL bounds what a
 * change nobody heard of costs.
 */
export function cachedStore(
  store: Store,
  caches: StoreCaches = newStoreCaches(),
  announce: (change: CacheChange) => void = () => {},
  witness: ChangeWitness = soleWriter,
): Store {
  // Expected before the write (the notification may arrive before the write's answer), waited for after it.
  const committed = async <T>(
    changes: CacheChange[],
    echoes: Echo[],
    write: () => Promise<T>,
    wroteAnything: (result: T) => boolean = () => true,
  ) => {
    try {
      const result = await write();
      for (const change of changes) {
        forgetChange(caches, change);
        announce(change);
      }
      // A write that changed no row (revoking an unknown id) sends nothing to wait for.
      if (wroteAnything(result)) await Promise.all(echoes.map((echo) => echo.heard()));
      return result;
    } finally {
      for (const echo of echoes) echo.cancel();
    }
  };
  const expectAndForget = (changes: CacheChange[]) =>
    changes.map((change) => {
      const echo = witness.expect(change);
      forgetChange(caches, change);
      return echo;
    });
  const immediate: RecordChanges = (changes, write, wroteAnything) =>
    committed(changes, expectAndForget(changes), write, wroteAnything);
  return {
    ...wrapKeysAndAccounts(store, caches, witness, immediate),
    async transaction(work) {
      const pending: CacheChange[] = [];
      const echoes: Echo[] = [];
      // Inside: dropped before each write; announced and waited for after the commit (nothing is sent before it).
      const deferred: RecordChanges = (changes, write) => {
        echoes.push(...expectAndForget(changes));
        pending.push(...changes);
        return write();
      };
      return committed(pending, echoes, () =>
        store.transaction((inner) => work(wrapKeysAndAccounts(inner, caches, witness, deferred))),
      );
    },
  };
}

/** The cached row (or remembered absence), else the store's, remembered unless a change was dropped meanwhile. */
async function readThrough<Row extends object>(
  caches: StoreCaches,
  cache: LRUCache<string, Row | { unknown: true }>,
  key: string,
  load: (key: string) => Promise<Row | null>,
): Promise<Row | null> {
  const cached = cache.get(key);
  if (cached !== undefined) return isUnknown(cached) ? null : cached;
  const generation = caches.generation;
  const row = await load(key);
  if (caches.generation === generation) cache.set(key, row ?? unknown);
  return row;
}

function wrapKeysAndAccounts(
  store: Store,
  caches: StoreCaches,
  witness: ChangeWitness,
  record: RecordChanges,
): Store {
  const findByHash = (hash: string) =>
    witness.trusted
      ? readThrough(caches, caches.keysByHash, hash, (key) => store.apiKeys.findByHash(key))
      : store.apiKeys.findByHash(hash);
  const getAccount = (id: string) =>
    witness.trusted
      ? readThrough(caches, caches.accounts, id, (key) => store.accounts.get(key))
      : store.accounts.get(id);
  /** Both read at once, and remembered unless a change was dropped meanwhile. */
  const readKeyWithAccount = async (hash: string) => {
    const generation = caches.generation;
    const found = await store.apiKeys.findWithAccount(hash);
    if (caches.generation !== generation) return found;
    caches.keysByHash.set(hash, found?.key ?? unknown);
    if (found !== null) caches.accounts.set(found.key.accountId, found.account ?? unknown);
    return found;
  };
  return {
    ...store,
    apiKeys: {
      ...store.apiKeys,
      findByHash,
      // From the caches when they hold the key, without a promise when they hold its account too (the usual request:
      // issue 16); otherwise one read of both, which fills them.
      findWithAccount(hash) {
        if (!witness.trusted) return store.apiKeys.findWithAccount(hash);
        const cachedKey = caches.keysByHash.get(hash);
        if (cachedKey === undefined) return readKeyWithAccount(hash);
        if (isUnknown(cachedKey)) return null;
        const cachedAccount = caches.accounts.get(cachedKey.accountId);
        if (cachedAccount === undefined)
          return getAccount(cachedKey.accountId).then((account) => ({ key: cachedKey, account }));
        return { key: cachedKey, account: isUnknown(cachedAccount) ? null : cachedAccount };
      },
      insert: (row) => record([{ apiKeyHash: row.hash }], () => store.apiKeys.insert(row)),
      revoke: (id, revokedAt) =>
        record(
          [{ apiKeyId: id }],
          () => store.apiKeys.revoke(id, revokedAt),
          (revoked) => revoked !== null,
        ),
    },
    accounts: {
      ...store.accounts,
      get: getAccount,
      insert: (row) => record([{ accountId: row.id }], () => store.accounts.insert(row)),
    },
    // Nested work joins the transaction in progress, its changes recorded the same way.
    transaction: (work) =>
      store.transaction((inner) => work(wrapKeysAndAccounts(inner, caches, witness, record))),
  };
}
