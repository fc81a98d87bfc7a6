import type { Subscriber } from '../../generated/types/schemas.js';
import type { Clock } from '../clock.js';
import { recordEvent } from '../services/events.js';
import type { Store } from '../storage/store.js';

/**
 * What the fan-out writes to the store, off the delivery path: subscriber.connected / subscriber.disconnected events
 * and each stream's subscriberCount. Count writes are coalesced per stream (one in flight, then the latest value),
 * so a thousand connections in a burst cost a few writes and the stored count still ends at the true one.
 */
export class SubscriberAccounting {
  readonly #pending = new Set<Promise<unknown>>();
  readonly #latestCounts = new Map<
    string,
    { accountId: string; count: number; recount?: (() => Promise<number> | null) | undefined }
  >();
  readonly #writingCounts = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void,
  ) {}

  connected(accountId: string, subscriber: Subscriber): void {
    this.#track(
      recordEvent(this.store, this.clock, accountId, 'subscriber.connected', { object: subscriber }),
    );
  }

  disconnected(accountId: string, subscriber: Subscriber): void {
    this.#track(
      recordEvent(this.store, this.clock, accountId, 'subscriber.disconnected', { object: subscriber }),
    );
  }

  /**
   * Stores the stream's count. On several nodes the count arrives from Redis (a promise), and `recount` reads it
   * again after each write: two nodes' writes may land in either order, and the one that wrote last corrects it.
   */
  subscriberCount(
    accountId: string,
    streamId: string,
    count: number | Promise<number>,
    recount?: () => Promise<number> | null,
  ): void {
    if (typeof count !== 'number') {
      this.#track(count.then((total) => this.subscriberCount(accountId, streamId, total, recount)));
      return;
    }
    this.#latestCounts.set(streamId, { accountId, count, recount });
    if (!this.#writingCounts.has(streamId)) this.#track(this.#writeCounts(streamId));
  }

  /** Resolves once every write started so far has ended. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  async #writeCounts(streamId: string): Promise<void> {
    this.#writingCounts.add(streamId);
    try {
      for (let latest = this.#latestCounts.get(streamId); latest !== undefined; ) {
        this.#latestCounts.delete(streamId);
        await this.store.streams.update(latest.accountId, streamId, { subscriberCount: latest.count });
        const now = await latest.recount?.();
        if (now !== undefined && now !== null && now !== latest.count && !this.#latestCounts.has(streamId))
          this.#latestCounts.set(streamId, { ...latest, count: now });
        latest = this.#latestCounts.get(streamId);
      }
    } finally {
      this.#writingCounts.delete(streamId);
    }
  }

  #track(write: Promise<unknown>): void {
    const tracked = write.catch(this.onError).finally(() => this.#pending.delete(tracked));
    this.#pending.add(tracked);
  }
}
