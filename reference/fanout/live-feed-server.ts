import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Stream, Subscriber } from '../../generated/types/schemas.js';
import { type Clock, isoTime } from '../clock.js';
import type { LiveFeedFaults } from '../faults.js';
import { problem } from '../problems.js';
import { newId } from '../services/ids.js';
import type { Store } from '../storage/store.js';
import { CountAnnouncements } from './count-announcements.js';
import type { FanoutBus } from './fanout-bus.js';
import { FlushScheduler } from './flush-scheduler.js';
import { afterSubscriberEnded } from './live-feed-faults.js';
import {
  maxSubscriberFrameBytes,
  pingIntervalMilliseconds,
  subscriberCountCoalesceMilliseconds,
} from './live-feed-rules.js';
import { StreamAudience } from './stream-audience.js';
import { SubscriberAccounting } from './subscriber-accounting.js';
import { SubscriberConnection } from './subscriber-connection.js';
import { LocalSubscriberCounts, type SubscriberCounts } from './subscriber-counts.js';
import {
  type AcceptedHandshake,
  checkHandshake,
  type LiveStream,
  malformedHandshake,
  oldHttpRefusal,
  refuseUpgrade,
} from './upgrade-handshake.js';

export interface LiveFeedOptions {
  store: Store;
  clock: Clock;
  signingKey: Uint8Array;
  bus: FanoutBus;
  /** The path `{ws_url}` ends with ('' when it is a bare host). */
  basePath?: string;
  /** Keep-alive period on the wall clock; the spec's by default (tests shorten it). */
  pingIntervalMilliseconds?: number;
  /** Failures that are not a subscriber's fault (a store write, a message that cannot be serialized). */
  onError?: (error: unknown) => void;
  /** Test-only faults (reference/faults.ts). */
  faults?: LiveFeedFaults | undefined;
  /** Counts over several nodes (ADR 0023); this process's own by default. */
  counts?: SubscriberCounts | undefined;
}

/** How long stopping waits for subscribers to answer the close frame before dropping them. */
const closeGraceMilliseconds = 1000;

/**
 * The live feed `{ws_url}/devices/{streamId}/live`: takes the upgrades of an HTTP server (before its framework sees
 * them), checks each handshake, and fans each stream's bus messages out to its subscribers (x-connection-rules).
 */
export class LiveFeedServer {
  readonly #sockets = new WebSocketServer({
    noServer: true,
    maxPayload: maxSubscriberFrameBytes,
    perMessageDeflate: false,
  });
  readonly #audiences = new Map<string, StreamAudience>();
  readonly #scheduler = new FlushScheduler();
  readonly #accounting: SubscriberAccounting;
  readonly #counts: SubscriberCounts;
  readonly #announcements = new CountAnnouncements<Stream['status']>(
    subscriberCountCoalesceMilliseconds,
    (streamId, status) => this.#announceOwed(streamId, status),
  );
  readonly #pinger: NodeJS.Timeout;
  readonly #onError: (error: unknown) => void;
  #stopping = false;

  constructor(private readonly options: LiveFeedOptions) {
    this.#onError = options.onError ?? ((error) => console.error('live feed:', error));
    this.#accounting = new SubscriberAccounting(options.store, options.clock, this.#onError);
    this.#counts = options.counts ?? new LocalSubscriberCounts(options.bus);
    this.#pinger = setInterval(
      () => this.#pingAll(),
      options.pingIntervalMilliseconds ?? pingIntervalMilliseconds,
    );
    this.#pinger.unref();
    // The library's own refusals of a malformed handshake are plain text; the spec's are the REST envelope.
    if (options.faults?.malformedHandshakeInPlainText !== true)
      this.#sockets.on('wsClientError', (error, socket) => refuseUpgrade(socket, malformedHandshake(error)));
  }

  /** Before the first subscriber: counts a stopped or crashed service left are stale (x-connection-rules.onServiceStart). */
  async recover(): Promise<number> {
    return this.options.store.streams.resetSubscriberCounts();
  }

  /** Handles every upgrade request of `server`; returns the function that stops. */
  attach(server: Server): () => void {
    const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.handleUpgrade(request, socket, head);
    server.on('upgrade', onUpgrade);
    return () => server.off('upgrade', onUpgrade);
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    // A peer that resets during the handshake must not become an unhandled error.
    socket.on('error', () => socket.destroy());
    (socket as Socket).setNoDelay?.(true);
    this.#handshake(request, socket, head).catch((error: unknown) => {
      this.#onError(error);
      if (!socket.destroyed) refuseUpgrade(socket, problem('internal_error', 'The service failed.'));
    });
  }

  /** Closes every subscriber of a deleted stream with 1000 and forgets its sequence. */
  streamDeleted(streamId: string): void {
    const audience = this.#audiences.get(streamId);
    if (audience !== undefined) {
      audience.deleted = true;
      audience.closeAll('streamDeleted');
    }
    this.#announcements.forget(streamId);
    this.options.bus.forget(streamId);
  }

  subscriberCount(streamId: string): number {
    return this.#audiences.get(streamId)?.connections.size ?? 0;
  }

  /** Closes every subscriber with 1001, waits for the store writes, then drops whoever did not answer. */
  async close(): Promise<void> {
    this.#stopping = true;
    clearInterval(this.#pinger);
    this.#announcements.close();
    for (const audience of [...this.#audiences.values()]) audience.closeAll('serviceStopping');
    await this.#accounting.settled();
    await this.#socketsClosed(closeGraceMilliseconds);
    for (const socket of this.#sockets.clients) socket.terminate();
    await new Promise<void>((resolve) => this.#sockets.close(() => resolve()));
  }

  async #handshake(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const result = await checkHandshake(
      {
        ...this.options,
        basePath: this.options.basePath ?? '',
        findStream: (accountId, streamId) => this.#findStream(accountId, streamId),
      },
      request,
    );
    if (this.#stopping) {
      socket.destroy();
      return;
    }
    if ('status' in result) {
      refuseUpgrade(socket, result);
      return;
    }
    // Checked last, with the library's own refusals (x-connection-rules.handshakeErrorCodes.malformedHandshake).
    const oldHttp =
      this.options.faults?.malformedHandshakeInPlainText === true ? null : oldHttpRefusal(request);
    if (oldHttp !== null) {
      refuseUpgrade(socket, oldHttp);
      return;
    }
    const release = await this.#listening(result.stream.id);
    if (this.#stopping) {
      release();
      socket.destroy();
      return;
    }
    // ws calls back synchronously (or never, for a socket already gone): the audience listens before the release.
    this.#sockets.handleUpgrade(request, socket, head, (webSocket) => {
      const audience = this.#audienceOf(result.stream);
      this.#accept(audience, webSocket, result);
    });
    release();
  }

  /**
   * On a cross-node bus, a subscriber is let in once its node hears the stream from every node, so it misses none
   * of the samples published after its handshake. A placeholder listener holds the subscription meanwhile.
   */
  async #listening(streamId: string): Promise<() => void> {
    const { bus } = this.options;
    if (bus.listening === undefined) return () => {};
    const release = bus.subscribe(streamId, () => {});
    try {
      await bus.listening(streamId);
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }

  /** A stream with subscribers is known without the store (a thousand subscribers joining cost one lookup). */
  async #findStream(accountId: string, streamId: string): Promise<LiveStream | null> {
    const audience = this.#audiences.get(streamId);
    if (audience === undefined || audience.accountId !== accountId)
      return this.options.store.streams.get(accountId, streamId);
    return audience.deleted ? null : { id: streamId, accountId, status: audience.status };
  }

  #audienceOf(stream: LiveStream): StreamAudience {
    let audience = this.#audiences.get(stream.id);
    if (audience === undefined) {
      audience = new StreamAudience(
        stream.id,
        stream.accountId,
        stream.status,
        this.options.bus,
        this.#onError,
      );
      this.#audiences.set(stream.id, audience);
    }
    return audience;
  }

  #accept(audience: StreamAudience, webSocket: SubscriberConnection['socket'], handshake: AcceptedHandshake) {
    const { clock } = this.options;
    const subscriber: Subscriber = {
      id: newId('SubscriberId'),
      object: 'subscriber',
      streamId: audience.streamId,
      connectedAt: isoTime(clock),
      disconnectedAt: null,
    };
    let cancelExpiry = () => {};
    const connection = new SubscriberConnection(webSocket, this.#scheduler, (code) => {
      cancelExpiry();
      audience.connections.delete(connection);
      afterSubscriberEnded(audience, code, this.options.faults);
      this.#accounting.disconnected(audience.accountId, { ...subscriber, disconnectedAt: isoTime(clock) });
      this.#countChanged(audience);
      if (audience.connections.size === 0) {
        audience.dispose();
        if (this.#audiences.get(audience.streamId) === audience) this.#audiences.delete(audience.streamId);
      }
    });
    cancelExpiry = clock.schedule(
      () => connection.close('tokenExpired'),
      handshake.tokenExpiresAt - clock.now(),
    );
    audience.connections.add(connection);
    this.#accounting.connected(audience.accountId, subscriber);
    this.#countChanged(audience);
  }

  /** subscriberCount is stored, and told to the stream's subscribers as a status message (x-connection-rules). */
  #countChanged(audience: StreamAudience): void {
    if (audience.deleted) return;
    const { accountId, streamId } = audience;
    const announce = !this.#stopping && this.#announcements.changed(streamId, audience.status);
    const total = this.#counts.changed(streamId, audience.status, audience.connections.size, announce);
    this.#accounting.subscriberCount(accountId, streamId, total, () =>
      this.#counts.current(streamId, this.subscriberCount(streamId)),
    );
  }

  /**
   * The count a coalescing window owes its stream's subscribers, as it is now. The audience may be gone (its last
   * subscriber left here): subscribers on other nodes are still told, with this node's count at 0.
   */
  #announceOwed(streamId: string, status: Stream['status']): void {
    const audience = this.#audiences.get(streamId);
    if (this.#stopping || audience?.deleted === true) return;
    const local = audience?.connections.size ?? 0;
    Promise.resolve(this.#counts.changed(streamId, audience?.status ?? status, local, true)).catch(
      this.#onError,
    );
  }

  #pingAll(): void {
    for (const audience of this.#audiences.values())
      for (const connection of [...audience.connections]) connection.ping();
  }

  async #socketsClosed(timeoutMilliseconds: number): Promise<void> {
    const deadline = Date.now() + timeoutMilliseconds;
    while (this.#sockets.clients.size > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
