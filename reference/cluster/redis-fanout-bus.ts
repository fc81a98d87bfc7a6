import type { Redis } from 'ioredis';
import type { FanoutBus, LiveMessage, UnsequencedMessage } from '../fanout/fanout-bus.js';
import type { ChannelSubscriptions } from './channel-subscriptions.js';
import { redisKeys } from './redis-keys.js';

type Listener = (message: LiveMessage) => void;

interface Settling {
  promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function settling(): Settling {
  let resolve: () => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<void>((resolvePromise, rejectPromise) => {
    resolve = resolvePromise;
    reject = rejectPromise;
  });
  return { promise, resolve, reject };
}

/**
 * INCRBY and PUBLISH in one script: Redis runs it atomically, so a batch of ARGV[1] messages gets the contiguous
 * `seq`s first..last in the order every subscriber sees. The payload is `<first seq>\n<JSON array>`.
 */
const publishScript = `local last = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PUBLISH', KEYS[2], (last - ARGV[1] + 1) .. '\\n' .. ARGV[2])
return last`;

type SequencingRedis = Redis & {
  publishLive(sequenceKey: string, channel: string, count: number, payload: string): Promise<number>;
};

/**
 * The fan-out bus across nodes (ADR 0023) on Redis pub/sub. A stream's `seq` is a Redis counter, incremented by the
 * same script that publishes (a stream's messages of one event-loop turn go as one batch, one script call), so every node numbers a stream's messages alike and in one order even when two nodes
 * publish to it (ingest on the device's node, subscriber counts on every node). Listeners of one stream hear it from
 * Redis, their own node's messages included, so all of them see the same order. `subscribeAll` (recording) hears
 * only the messages published on this node, synchronously: the node holding a stream's device records it, and
 * recording keeps working while Redis is unreachable. Pub/sub is at most once: a node that is not subscribed, or
 * whose connection is down, misses messages; subscribers notice them as gaps in `seq`.
 */
export class RedisFanoutBus implements FanoutBus {
  readonly #redis: SequencingRedis;
  readonly #local = new Map<string, number>();
  readonly #everyStream = new Set<Listener>();
  readonly #handlers = new Map<
    string,
    { handler: (raw: string) => void; listeners: Set<Listener>; subscribed: Promise<void> }
  >();
  /** What this event-loop turn published, per stream: sent as one batch (one script call) in the next turn. */
  readonly #outbox = new Map<string, string[]>();
  #flushScheduled = false;
  /** Settles when the outbox's scripts have run; made only when someone waits for it (a QoS 1 PUBACK). */
  #nextFlush: Settling | null = null;
  /** The last flush sent whose scripts have not all answered yet. */
  #inFlight: Promise<void> | null = null;

  constructor(
    commands: Redis,
    private readonly subscriptions: ChannelSubscriptions,
    private readonly onError: (error: unknown) => void = (error) => console.error('fan-out (redis):', error),
  ) {
    if (!('publishLive' in commands))
      commands.defineCommand('publishLive', { numberOfKeys: 2, lua: publishScript });
    this.#redis = commands as SequencingRedis;
  }

  publish(message: UnsequencedMessage): LiveMessage {
    const localSeq = (this.#local.get(message.streamId) ?? 0) + 1;
    this.#local.set(message.streamId, localSeq);
    const sequenced = { ...message, seq: localSeq } as LiveMessage;
    for (const listener of this.#everyStream) this.#call(listener, sequenced);
    const batch = this.#outbox.get(message.streamId);
    if (batch === undefined) this.#outbox.set(message.streamId, [JSON.stringify(message)]);
    else batch.push(JSON.stringify(message));
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => this.flush());
    }
    return sequenced;
  }

  /**
   * Redis answered a script after it ran PUBLISH, which puts the batch in the output buffer of every subscribed node:
   * from then on a kill -9 of this node no longer loses it (ADR 0023).
   */
  accepted(): Promise<void> | null {
    if (!this.#flushScheduled) return this.#inFlight;
    this.#nextFlush ??= settling();
    return this.#nextFlush.promise;
  }

  /** Sends what this turn published now (before a message published by another path must follow it). */
  flush(): void {
    if (this.#flushScheduled) this.#flush();
  }

  #flush(): void {
    this.#flushScheduled = false;
    const scripts: Promise<number>[] = [];
    for (const [streamId, batch] of this.#outbox) {
      const payload = `[${batch.join(',')}]`;
      scripts.push(
        this.#redis.publishLive(
          redisKeys.sequence(streamId),
          redisKeys.liveChannel(streamId),
          batch.length,
          payload,
        ),
      );
    }
    this.#outbox.clear();
    const flushed = Promise.all(scripts).then(() => {});
    const waiting = this.#nextFlush;
    this.#nextFlush = null;
    if (waiting !== null) flushed.then(waiting.resolve, waiting.reject);
    this.#inFlight = flushed;
    flushed.catch(this.onError).finally(() => {
      if (this.#inFlight === flushed) this.#inFlight = null;
    });
  }

  subscribe(streamId: string, listener: Listener): () => void {
    let entry = this.#handlers.get(streamId);
    if (entry === undefined) {
      const listeners = new Set<Listener>();
      const handler = (raw: string) => this.#deliver(raw, listeners);
      const subscribed = this.subscriptions.add(redisKeys.liveChannel(streamId), handler);
      subscribed.catch(this.onError);
      entry = { handler, listeners, subscribed };
      this.#handlers.set(streamId, entry);
    }
    const { listeners, handler } = entry;
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size > 0 || this.#handlers.get(streamId)?.listeners !== listeners) return;
      this.#handlers.delete(streamId);
      this.subscriptions.remove(redisKeys.liveChannel(streamId), handler);
    };
  }

  /** The stream's SUBSCRIBE confirmed by Redis (resolves at once when nothing on this node listens to it). */
  async listening(streamId: string): Promise<void> {
    await this.#handlers.get(streamId)?.subscribed;
  }

  subscribeAll(listener: Listener): () => void {
    this.#everyStream.add(listener);
    return () => this.#everyStream.delete(listener);
  }

  /** A deleted stream's counter goes (ids are never reused). */
  forget(streamId: string): void {
    this.#local.delete(streamId);
    this.#redis.del(redisKeys.sequence(streamId)).catch(this.onError);
  }

  async close(): Promise<void> {
    this.flush();
    for (const [streamId, { handler }] of this.#handlers)
      this.subscriptions.remove(redisKeys.liveChannel(streamId), handler);
    this.#handlers.clear();
    this.#everyStream.clear();
  }

  #deliver(raw: string, listeners: Set<Listener>): void {
    const newline = raw.indexOf('\n');
    const messages = JSON.parse(raw.slice(newline + 1)) as LiveMessage[];
    let seq = Number(raw.slice(0, newline));
    for (const message of messages) {
      message.seq = seq;
      seq += 1;
      for (const listener of listeners) this.#call(listener, message);
    }
  }

  #call(listener: Listener, message: LiveMessage): void {
    try {
      listener(message);
    } catch (error) {
      this.onError(error);
    }
  }
}
