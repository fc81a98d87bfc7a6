import type { Stream } from '../../generated/types/schemas.js';
import type { FanoutBus, LiveMessage } from './fanout-bus.js';
import type { CloseReason } from './live-feed-rules.js';
import type { SubscriberConnection } from './subscriber-connection.js';

/**
 * The subscribers of one stream and its one listener on the bus. Each message is serialized once and queued for
 * every subscriber; the stream's status is followed from the status messages, for the subscriber-count messages.
 */
export class StreamAudience {
  readonly connections = new Set<SubscriberConnection>();
  /** Set once the stream is deleted: nothing more is published or stored for it. */
  deleted = false;
  #status: Stream['status'];
  readonly #stopListening: () => void;

  constructor(
    readonly streamId: string,
    readonly accountId: string,
    status: string,
    bus: FanoutBus,
    private readonly onFailure: (error: unknown) => void,
  ) {
    this.#status = status as Stream['status'];
    this.#stopListening = bus.subscribe(streamId, (message) => this.#deliver(message));
  }

  get status(): Stream['status'] {
    return this.#status;
  }

  closeAll(reason: CloseReason): void {
    for (const connection of [...this.connections]) connection.close(reason);
  }

  dispose(): void {
    this.#stopListening();
  }

  #deliver(message: LiveMessage): void {
    if (message.type === 'status') this.#status = message.status;
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch (error) {
      // A message that cannot be sent breaks "every message, exactly once": the subscribers must know.
      this.onFailure(error);
      this.closeAll('serviceFailed');
      return;
    }
    const bytes = Buffer.byteLength(text);
    for (const connection of this.connections) connection.enqueue(text, bytes);
  }
}
