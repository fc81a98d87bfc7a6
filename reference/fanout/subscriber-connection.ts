import type WebSocket from 'ws';
import type { FlushScheduler } from './flush-scheduler.js';
import { type CloseReason, closeCodes, maxBufferedBytes } from './live-feed-rules.js';

/**
 * One subscriber's socket and its queue. Messages arrive serialized once for all subscribers; each subscriber joins
 * what it has queued into one LiveFrame when it is flushed. While a frame is still being written (the socket holds
 * unsent bytes), new messages wait and leave together in the next frame, so a subscriber that is behind gets bigger
 * frames, and one that is more than maxBufferedBytes behind is dropped with 1013 before it costs more memory.
 */
export class SubscriberConnection {
  readonly #queue: string[] = [];
  #queuedBytes = 0;
  #writing = false;
  #scheduled = false;
  #ended = false;
  #answeredPing = true;

  constructor(
    readonly socket: WebSocket,
    private readonly scheduler: FlushScheduler,
    /** Called once, with the close code, when the connection ends for any reason. */
    private readonly onEnded: (code: number) => void,
  ) {
    // The feed is one-way (x-connection-rules.subscriberData); ws itself closes with 1009 on an oversized frame.
    socket.on('message', () => this.close('subscriberSentData'));
    socket.on('pong', () => {
      this.#answeredPing = true;
    });
    // A reset or a protocol error: ws closes the socket and 'close' follows.
    socket.on('error', () => {});
    socket.on('close', (code) => this.#end(code));
  }

  get ended(): boolean {
    return this.#ended;
  }

  enqueue(message: string, bytes: number): void {
    if (this.#ended) return;
    this.#queue.push(message);
    this.#queuedBytes += bytes;
    if (this.#queuedBytes + this.socket.bufferedAmount > maxBufferedBytes) {
      this.close('subscriberTooSlow');
      return;
    }
    this.#requestFlush();
  }

  flush(): void {
    this.#scheduled = false;
    if (this.#ended || this.#writing || this.#queue.length === 0) return;
    const frame = `[${this.#queue.join(',')}]`;
    this.#queue.length = 0;
    this.#queuedBytes = 0;
    this.#writing = true;
    // The callback runs once the frame is handed to the kernel: until then the socket is behind.
    this.socket.send(frame, () => {
      this.#writing = false;
      if (this.#queue.length > 0) this.#requestFlush();
    });
  }

  close(reason: CloseReason): void {
    if (this.#ended) return;
    this.#queue.length = 0;
    this.#queuedBytes = 0;
    this.#end(closeCodes[reason]);
    this.socket.close(closeCodes[reason], reason);
  }

  /** Ends a connection whose peer is gone (no close frame: the peer sees 1006). */
  terminate(): void {
    this.#end(1006);
    this.socket.terminate();
  }

  /** Keep-alive: a peer that did not answer the previous ping is dropped, otherwise it is pinged again. */
  ping(): void {
    if (this.#ended) return;
    if (!this.#answeredPing) {
      this.terminate();
      return;
    }
    this.#answeredPing = false;
    this.socket.ping();
  }

  #requestFlush(): void {
    if (this.#writing || this.#scheduled) return;
    this.#scheduled = true;
    this.scheduler.add(this);
  }

  #end(code: number): void {
    if (this.#ended) return;
    this.#ended = true;
    this.onEnded(code);
  }
}
