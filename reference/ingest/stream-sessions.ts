import { type Clock, isoTime } from '../clock.js';
import type { FanoutBus } from '../fanout/fanout-bus.js';
import type { IngestFaults } from '../faults.js';
import { recordEvent } from '../services/events.js';
import type { StreamRow } from '../storage/rows.js';
import type { Store } from '../storage/store.js';
import { onlineSnapshot } from './ingest-faults.js';
import type { StreamLeases } from './stream-leases.js';

/** A stream's live session: what ingest needs of the stream for every message, read once at connect. */
export interface LiveSession {
  streamId: string;
  accountId: string;
  quality: string;
  format: string;
  startedAt: string;
}

function snapshot(row: StreamRow) {
  return { id: row.id, object: 'stream' as const, title: row.title, subscriberCount: row.subscriberCount };
}

/**
 * The stream state machine of x-ingest-rules: connect → live, `startedAt`, device.online; disconnect → idle,
 * device.offline. One session per stream: the claim is taken synchronously in memory (one process serves a
 * stream's device) and confirmed by a conditional update in the store (another node may hold it). Transitions of
 * one stream run one after another, so a device that reconnects at once goes live after its offline was written.
 */
export class StreamSessions {
  readonly #claimed = new Set<string>();
  readonly #live = new Map<string, LiveSession>();
  readonly #transitions = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly bus: FanoutBus,
    /** Several nodes (ADR 0023): a stream goes live only under this node's lease. */
    private readonly leases?: StreamLeases,
    private readonly faults: IngestFaults = {},
  ) {}

  get liveCount(): number {
    return this.#live.size;
  }

  /** Takes the stream live; `null` when it already has a device (here or on another node). */
  async begin(stream: StreamRow): Promise<LiveSession | null> {
    if (this.#claimed.has(stream.id)) return null;
    this.#claimed.add(stream.id);
    const row = await this.#serially(stream.id, () => this.#goLiveLeased(stream.id)).catch(
      (error: unknown) => {
        this.#claimed.delete(stream.id);
        throw error;
      },
    );
    if (row === null || row.startedAt === null) {
      this.#claimed.delete(stream.id);
      return null;
    }
    const session = {
      streamId: row.id,
      accountId: row.accountId,
      quality: row.quality,
      format: row.format,
      startedAt: row.startedAt,
    };
    this.#live.set(row.id, session);
    this.bus.publish({
      type: 'status',
      streamId: row.id,
      status: 'live',
      subscriberCount: row.subscriberCount,
    });
    return session;
  }

  /** Takes the stream idle after its device went away; resolves once device.offline is written. */
  async end(session: LiveSession): Promise<void> {
    if (this.#live.get(session.streamId) !== session) return;
    this.#live.delete(session.streamId);
    this.#claimed.delete(session.streamId);
    const row = await this.#serially(session.streamId, () =>
      this.#goIdle(session.streamId, session.startedAt),
    );
    await this.leases?.release(session.streamId);
    if (row !== null)
      this.bus.publish({
        type: 'status',
        streamId: row.id,
        status: 'idle',
        subscriberCount: row.subscriberCount,
      });
  }

  /** At start: streams a stopped or crashed service left live go idle, each with its device.offline. */
  async recover(): Promise<number> {
    const leftLive = await this.store.streams.listLive();
    if (this.leases !== undefined) return this.#idleOrphans(leftLive, this.leases);
    for (const row of leftLive) await this.#goIdle(row.id, row.startedAt ?? isoTime(this.clock));
    return leftLive.length;
  }

  /** Several nodes: a live stream whose lease ran out lost its node; idled under a lease of this node. */
  async #idleOrphans(leftLive: StreamRow[], leases: StreamLeases): Promise<number> {
    let idled = 0;
    for (const row of leftLive) {
      if (this.#claimed.has(row.id) || !(await leases.acquire(row.id))) continue;
      try {
        const idle = await this.#serially(row.id, () =>
          this.#goIdle(row.id, row.startedAt ?? isoTime(this.clock)),
        );
        if (idle === null) continue;
        idled += 1;
        this.bus.publish({
          type: 'status',
          streamId: idle.id,
          status: 'idle',
          subscriberCount: idle.subscriberCount,
        });
      } finally {
        await leases.release(row.id);
      }
    }
    return idled;
  }

  /** Under a lease, a stream still live in the store was left by a node that died: idled first, then taken live. */
  async #goLiveLeased(streamId: string): Promise<StreamRow | null> {
    if (this.leases === undefined) return this.#goLive(streamId);
    if (!(await this.leases.acquire(streamId))) return null;
    let row = await this.#goLive(streamId);
    const stale = row === null ? await this.store.streams.getById(streamId) : null;
    if (stale?.status === 'live') {
      await this.#goIdle(streamId, stale.startedAt ?? isoTime(this.clock));
      row = await this.#goLive(streamId);
    }
    if (row === null) await this.leases.release(streamId);
    return row;
  }

  /** Resolves when every transition begun so far has been written. */
  async settled(): Promise<void> {
    while (this.#transitions.size > 0) await Promise.allSettled([...this.#transitions.values()]);
  }

  #goLive(streamId: string): Promise<StreamRow | null> {
    return this.store.transaction(async (store) => {
      const live = await store.streams.setLive(streamId, isoTime(this.clock));
      if (live === null || live.startedAt === null) return null;
      await recordEvent(store, this.clock, live.accountId, 'device.online', {
        object: onlineSnapshot(
          { ...snapshot(live), status: 'live' as const, startedAt: live.startedAt },
          this.faults,
        ),
      });
      return live;
    });
  }

  #goIdle(streamId: string, startedAt: string): Promise<StreamRow | null> {
    return this.store.transaction(async (store) => {
      const idle = await store.streams.setIdle(streamId);
      if (idle === null) return null;
      const endedAt = isoTime(this.clock);
      await recordEvent(store, this.clock, idle.accountId, 'device.offline', {
        object: { ...snapshot(idle), status: 'idle', startedAt, endedAt },
      });
      return idle;
    });
  }

  #serially<T>(streamId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#transitions.get(streamId) ?? Promise.resolve();
    const next = previous.then(work, work);
    this.#transitions.set(streamId, next);
    const forget = () => {
      if (this.#transitions.get(streamId) === next) this.#transitions.delete(streamId);
    };
    next.then(forget, forget);
    return next;
  }
}
