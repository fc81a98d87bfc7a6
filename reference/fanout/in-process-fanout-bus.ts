import type { FanoutBus, LiveMessage, UnsequencedMessage } from './fanout-bus.js';

type Listener = (message: LiveMessage) => void;

/**
 * The fan-out bus of one process: numbering and delivery happen synchronously inside `publish`, so the order in
 * which writers publish is the order every listener sees. A listener that throws is the listener's bug; it must not
 * stop the message reaching the others, so the error is reported and delivery goes on.
 */
export class InProcessFanoutBus implements FanoutBus {
  readonly #sequences = new Map<string, number>();
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #everyStream = new Set<Listener>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  publish(message: UnsequencedMessage): LiveMessage {
    const seq = (this.#sequences.get(message.streamId) ?? 0) + 1;
    this.#sequences.set(message.streamId, seq);
    const sequenced = { ...message, seq } as LiveMessage;
    for (const listener of this.#everyStream) this.#call(listener, sequenced);
    for (const listener of this.#listeners.get(message.streamId) ?? []) this.#call(listener, sequenced);
    return sequenced;
  }

  /** Delivery is synchronous: what `publish` returned from has been handed to every listener. */
  accepted(): null {
    return null;
  }

  subscribe(streamId: string, listener: Listener): () => void {
    let listeners = this.#listeners.get(streamId);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(streamId, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners.get(streamId) === listeners)
        this.#listeners.delete(streamId);
    };
  }

  subscribeAll(listener: Listener): () => void {
    this.#everyStream.add(listener);
    return () => this.#everyStream.delete(listener);
  }

  forget(streamId: string): void {
    this.#sequences.delete(streamId);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    this.#everyStream.clear();
  }

  #call(listener: Listener, message: LiveMessage): void {
    try {
      listener(message);
    } catch (error) {
      this.onListenerError(error);
    }
  }
}
