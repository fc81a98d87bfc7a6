import type { DeviceErrorCode } from '../../generated/types/schemas.js';
import type { Clock } from '../clock.js';
import { recordEvent } from '../services/events.js';
import type { Store } from '../storage/store.js';
import { ingestLimits } from './ingest-rules.js';
import type { LiveSession } from './stream-sessions.js';
import { TokenBucket } from './token-bucket.js';

/**
 * device.error, at most one per stream per interval of wall time (x-ingest-rules): a device that sends garbage at
 * 100 kHz must cost one event a second, not one per message. The event says how many messages were dropped since
 * the last one, so nothing is hidden by the bound. Writing it is asynchronous and never blocks ingest.
 *
 * `service_overloaded` has a second bound, over all streams: every stream sheds at once when the service is
 * overloaded, and one event per stream per second (a store read and an event write each, on the same event loop
 * when the store is embedded) would be the largest load of all (measured: 240 streams kept the loop seconds
 * behind while shedding). Held-back events are not lost: the stream's next one counts them.
 */
export class DeviceErrorReporter {
  readonly #lastEventAt = new Map<string, number>();
  readonly #droppedSince = new Map<string, number>();
  readonly #overloadEvents: TokenBucket;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly onFailure: (error: unknown) => void,
    private readonly wallNow: () => number = Date.now,
    /** service_overloaded events per second over all streams (engine tuning, OverloadSettings). */
    overloadEventsPerSecond = Number.POSITIVE_INFINITY,
  ) {
    const capacity = Math.max(1, Math.min(overloadEventsPerSecond, 1e9));
    this.#overloadEvents = new TokenBucket(capacity, capacity / 1000, wallNow());
  }

  report(session: LiveSession, code: DeviceErrorCode, reason: string): void {
    const dropped = (this.#droppedSince.get(session.streamId) ?? 0) + 1;
    const now = this.wallNow();
    const last = this.#lastEventAt.get(session.streamId);
    const withinInterval = last !== undefined && now - last < ingestLimits.errorIntervalMilliseconds;
    if (withinInterval || (code === 'service_overloaded' && !this.#overloadEvents.take(now))) {
      this.#droppedSince.set(session.streamId, dropped);
      return;
    }
    this.#lastEventAt.set(session.streamId, now);
    this.#droppedSince.set(session.streamId, 0);
    const message = `${reason} (${dropped} message${dropped === 1 ? '' : 's'} dropped since the last device.error)`;
    this.#record(session, code, message).catch(this.onFailure);
  }

  /** The stream's session ended: its next session starts with a clean slate. */
  forget(streamId: string): void {
    this.#lastEventAt.delete(streamId);
    this.#droppedSince.delete(streamId);
  }

  async #record(session: LiveSession, code: DeviceErrorCode, message: string): Promise<void> {
    // Read again so the snapshot carries today's title and subscriber count; at most once a second per stream.
    const row = await this.store.streams.getById(session.streamId);
    if (row === null) return;
    await recordEvent(this.store, this.clock, session.accountId, 'device.error', {
      object: {
        id: row.id,
        object: 'stream',
        title: row.title,
        status: row.status === 'live' ? 'live' : 'idle',
        subscriberCount: row.subscriberCount,
        startedAt: session.startedAt,
      },
      error: { code, message },
    });
  }
}
