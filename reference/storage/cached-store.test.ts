import { describe, expect, it } from 'vitest';
import { type ChangeWitness, cachedStore, forgetChange, newStoreCaches } from './cached-store.js';
import { parseNotification } from './change-echoes.js';
import type { AccountRow, ApiKeyRow } from './rows.js';
import type { Store } from './store.js';

const key: ApiKeyRow = {
  id: 'key_1',
  accountId: 'acct_1',
  kind: 'secret',
  hash: 'h1',
  status: 'active',
  createdAt: '',
  revokedAt: null,
};
const account: AccountRow = { id: 'acct_1', plan: 'free', defaultRegion: 'local-1', createdAt: '' };

/** A store whose key and account tables count reads, enough for the cache's contract. */
function countingStore() {
  const reads = { keys: 0, accounts: 0 };
  const keys = new Map<string, ApiKeyRow>([[key.hash, key]]);
  const store = {
    apiKeys: {
      findByHash: async (hash: string) => {
        reads.keys += 1;
        return keys.get(hash) ?? null;
      },
      findWithAccount: async (hash: string) => {
        reads.keys += 1;
        const row = keys.get(hash);
        return row === undefined ? null : { key: row, account };
      },
      revoke: async (id: string, revokedAt: string) => {
        const row = [...keys.values()].find((candidate) => candidate.id === id);
        if (row === undefined) return null;
        const revoked: ApiKeyRow = { ...row, status: 'revoked', revokedAt };
        keys.set(row.hash, revoked);
        return revoked;
      },
      insert: async (row: ApiKeyRow) => {
        keys.set(row.hash, row);
        return row;
      },
    },
    accounts: {
      get: async () => {
        reads.accounts += 1;
        return account;
      },
      insert: async (row: AccountRow) => row,
    },
    transaction: async <T>(work: (inner: Store) => Promise<T>) => work(store as unknown as Store),
  };
  return { store: store as unknown as Store, reads };
}

describe('cached store', () => {
  it('reads a key and an account once, and sees a revocation at once', async () => {
    const { store, reads } = countingStore();
    const cached = cachedStore(store);
    await cached.apiKeys.findByHash('h1');
    await cached.apiKeys.findByHash('h1');
    await cached.accounts.get('acct_1');
    await cached.accounts.get('acct_1');
    expect(reads).toEqual({ keys: 1, accounts: 1 });
    await cached.transaction((inner) => inner.apiKeys.revoke('key_1', 'now'));
    expect((await cached.apiKeys.findByHash('h1'))?.status).toBe('revoked');
  });

  it('reads a key with its account once, fills both caches, and sees a revocation at once', async () => {
    const { store, reads } = countingStore();
    const cached = cachedStore(store);
    expect(await cached.apiKeys.findWithAccount('h1')).toEqual({ key, account });
    expect(await cached.apiKeys.findWithAccount('h1')).toEqual({ key, account });
    await cached.accounts.get('acct_1');
    expect(reads).toEqual({ keys: 1, accounts: 0 });
    await cached.apiKeys.revoke('key_1', 'now');
    expect((await cached.apiKeys.findWithAccount('h1'))?.key.status).toBe('revoked');
    expect(await cached.apiKeys.findWithAccount('h3')).toBeNull();
    expect(await cached.apiKeys.findWithAccount('h3')).toBeNull();
    expect(reads.keys).toBe(3);
  });

  it('answers a key and account it holds without a promise, and reads only the account it lacks (issue 16)', async () => {
    const { store, reads } = countingStore();
    const caches = newStoreCaches();
    const cached = cachedStore(store, caches);
    await cached.apiKeys.findWithAccount('h1');
    // Held: the answer itself, so the request goes on in the same turn.
    const held = cached.apiKeys.findWithAccount('h1');
    expect(held).not.toBeInstanceOf(Promise);
    expect(held).toEqual({ key, account });
    expect(cached.apiKeys.findWithAccount('h1') instanceof Promise).toBe(false);
    // An account dropped from its cache (its own cap, or a change) is read alone; the key is not read again.
    caches.accounts.clear();
    const lacking = cached.apiKeys.findWithAccount('h1');
    expect(lacking).toBeInstanceOf(Promise);
    expect(await lacking).toEqual({ key, account });
    expect(reads).toEqual({ keys: 1, accounts: 1 });
    // A remembered unknown key is refused at once.
    await cached.apiKeys.findWithAccount('h3');
    expect(cached.apiKeys.findWithAccount('h3')).toBeNull();
  });

  it('forgets an unknown key once a key with that digest is created', async () => {
    const { store } = countingStore();
    const cached = cachedStore(store);
    expect(await cached.apiKeys.findByHash('h2')).toBeNull();
    await cached.apiKeys.insert({ ...key, id: 'key_2', hash: 'h2' });
    expect((await cached.apiKeys.findByHash('h2'))?.id).toBe('key_2');
  });

  it('holds at most its cap of entries, so a flood of unknown keys cannot grow memory (issue 12, item 2)', async () => {
    const { store, reads } = countingStore();
    const caches = newStoreCaches(3);
    const cached = cachedStore(store, caches);
    for (let index = 0; index < 100; index += 1) await cached.apiKeys.findByHash(`unknown-${index}`);
    expect(caches.keysByHash.size).toBe(3);
    expect(reads.keys).toBe(100);
    // The oldest entry was dropped, so looking it up again reads the table; a recent one is still served.
    await cached.apiKeys.findByHash('unknown-0');
    await cached.apiKeys.findByHash('unknown-99');
    expect(reads.keys).toBe(101);
  });

  it('does not remember a row read before a change that was dropped while the read ran', async () => {
    const { store, reads } = countingStore();
    const caches = newStoreCaches();
    const cached = cachedStore(store, caches);
    // The change is heard while the read is on its way back: the row it brings may be older than the change.
    const reading = cached.apiKeys.findWithAccount('h1');
    forgetChange(caches, { apiKeyHash: 'h1' });
    expect(await reading).toEqual({ key, account });
    expect(caches.keysByHash.size).toBe(0);
    await cached.apiKeys.findWithAccount('h1');
    await cached.apiKeys.findWithAccount('h1');
    expect(reads.keys).toBe(2);
  });

  it('neither reads nor fills the caches while its witness does not hear every change, and waits for a write’s echo', async () => {
    const { store, reads } = countingStore();
    const caches = newStoreCaches();
    const heard: string[] = [];
    const witness: ChangeWitness & { trusted: boolean } = {
      trusted: false,
      expect: (change: object) => ({
        heard: async () => {
          heard.push(JSON.stringify(change));
        },
        cancel: () => {},
      }),
    };
    const cached = cachedStore(store, caches, undefined, witness);
    await cached.apiKeys.findWithAccount('h1');
    await cached.apiKeys.findWithAccount('h1');
    expect(reads.keys).toBe(2);
    expect(caches.keysByHash.size).toBe(0);
    witness.trusted = true;
    await cached.apiKeys.findWithAccount('h1');
    await cached.apiKeys.findWithAccount('h1');
    expect(reads.keys).toBe(3);
    await cached.transaction((inner) => inner.apiKeys.revoke('key_1', 'now'));
    expect(heard).toEqual(['{"apiKeyId":"key_1"}']);
    // Revoking an unknown id writes nothing, so nothing comes back to wait for.
    await cached.apiKeys.revoke('key_unknown', 'now');
    expect(heard).toHaveLength(1);
  });
});

describe('key change notifications', () => {
  it('name a key, an account, or (anything unexpected on the channel) everything', () => {
    expect(parseNotification('{"apiKeyId":"key_1","apiKeyHash":"h1"}')).toEqual({
      apiKeyId: 'key_1',
      apiKeyHash: 'h1',
    });
    expect(parseNotification('{"accountId":"acct_1"}')).toEqual({ accountId: 'acct_1' });
    expect(parseNotification('{"all":true}')).toEqual({ all: true });
    expect(parseNotification('hello')).toEqual({ all: true });
    expect(parseNotification('{"apiKeyId":"key_1"}')).toEqual({ all: true });
    expect(parseNotification(undefined)).toEqual({ all: true });
  });
});
