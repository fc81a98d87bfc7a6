import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.js';
import type { Store } from '../storage/store.js';

/** Feeds kept at once, and how long one is trusted without a write seen (writes by another node, on PostgreSQL). */
const maxFeeds = 1_000;
const maxAgeSeconds = 30;

export interface CachedFeed {
  xml: string;
  etag: string;
}

/**
 * Rendered feeds by report (issue 12, item 1; ADR 0014). An entry holds while its account saw no write to reports or
 * records through this process's store, and for at most `maxAgeSeconds`, so another node's write shows up soon.
 */
type CacheEntry = CachedFeed & { accountId: string; generation: number; storedAt: number };

export class FeedCache {
  readonly #feeds = new LRUCache<string, CacheEntry>({ max: maxFeeds });
  readonly #generations = new LRUCache<string, number>({ max: 100_000 });
  readonly #building = new Map<string, Promise<CachedFeed>>();

  constructor(private readonly clock: Clock) {}

  /**
   * The cached feed of a report while it is current, without asking the store anything: a deleted or changed report
   * has moved its account's generation on, so a hit needs no lookup of the report (issue 12, item 1).
   */
  current(reportId: string): CacheEntry | undefined {
    const cached = this.#feeds.get(reportId);
    if (cached === undefined || this.clock.now() - cached.storedAt >= maxAgeSeconds * 1000) return undefined;
    return cached.generation === (this.#generations.get(cached.accountId) ?? 0) ? cached : undefined;
  }

  /** The cached feed of a report, or one rendered by `render` and cached. */
  async get(reportId: string, accountId: string, render: () => Promise<string>): Promise<CachedFeed> {
    const generation = this.#generations.get(accountId) ?? 0;
    const cached = this.current(reportId);
    if (cached !== undefined && cached.accountId === accountId) return cached;
    // Concurrent readers of a feed being built wait for that one build instead of starting their own.
    const key = `${reportId} ${generation}`;
    const pending = this.#building.get(key);
    if (pending !== undefined) return pending;
    const building = this.#build(reportId, accountId, generation, render);
    this.#building.set(key, building);
    try {
      return await building;
    } finally {
      this.#building.delete(key);
    }
  }

  async #build(reportId: string, accountId: string, generation: number, render: () => Promise<string>) {
    const xml = await render();
    const etag = `"${createHash('sha256').update(xml).digest('base64url').slice(0, 27)}"`;
    this.#feeds.set(reportId, { xml, etag, accountId, generation, storedAt: this.clock.now() });
    return { xml, etag };
  }

  /** Forgets every feed of an account: one of its reports or records changed. */
  changed(accountId: string): void {
    this.#generations.set(accountId, (this.#generations.get(accountId) ?? 0) + 1);
  }
}

/** The store with every write to reports and records telling the feed cache. */
export function feedInvalidatingStore(store: Store, cache: FeedCache): Store {
  const tell =
    <Arguments extends [string, ...unknown[]], Result>(write: (...args: Arguments) => Promise<Result>) =>
    async (...args: Arguments): Promise<Result> => {
      const result = await write(...args);
      cache.changed(args[0]);
      return result;
    };
  const { reports, records } = store;
  return {
    ...store,
    reports: {
      ...reports,
      update: tell(reports.update.bind(reports)),
      delete: tell(reports.delete.bind(reports)),
    },
    records: {
      ...records,
      update: tell(records.update.bind(records)),
      delete: tell(records.delete.bind(records)),
      insert: async (row) => {
        const inserted = await records.insert(row);
        cache.changed(row.accountId);
        return inserted;
      },
    },
    transaction: (work) => store.transaction((inner) => work(feedInvalidatingStore(inner, cache))),
  };
}
