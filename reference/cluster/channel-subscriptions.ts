import type { Redis } from 'ioredis';

type Handler = (message: string) => void;

/**
 * Several parts of a node (the fan-out bus, cache invalidation) share one subscriber connection: each channel is
 * subscribed while it has at least one handler, and every message is routed to that channel's handlers.
 */
export class ChannelSubscriptions {
  readonly #handlers = new Map<string, Set<Handler>>();
  /** Each subscribed channel's SUBSCRIBE, answered or not yet. */
  readonly #subscribed = new Map<string, Promise<void>>();

  constructor(
    private readonly subscriber: Redis,
    private readonly onError: (error: unknown) => void,
  ) {
    subscriber.on('message', (channel: string, message: string) => {
      for (const handler of this.#handlers.get(channel) ?? []) {
        try {
          handler(message);
        } catch (error) {
          this.onError(error);
        }
      }
    });
  }

  /** Resolves once Redis confirmed the subscription, so nothing published after it is missed. */
  async add(channel: string, handler: Handler): Promise<void> {
    let handlers = this.#handlers.get(channel);
    if (handlers === undefined) {
      handlers = new Set();
      this.#handlers.set(channel, handlers);
      this.#subscribed.set(
        channel,
        this.subscriber.subscribe(channel).then(() => {}),
      );
    }
    handlers.add(handler);
    await this.#subscribed.get(channel);
  }

  remove(channel: string, handler: Handler): void {
    const handlers = this.#handlers.get(channel);
    if (handlers === undefined) return;
    handlers.delete(handler);
    if (handlers.size > 0) return;
    this.#handlers.delete(channel);
    this.#subscribed.delete(channel);
    this.subscriber.unsubscribe(channel).catch(this.onError);
  }
}
