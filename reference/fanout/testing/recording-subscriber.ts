import { subscribeLiveFeed } from '../../../generated/messages/live-feed.js';
import type { LiveMessage } from '../fanout-bus.js';

/** A subscriber on the generated WebSocket client that keeps every frame and message it received, and how it ended. */
export interface RecordingSubscriber {
  frames: LiveMessage[][];
  messages: LiveMessage[];
  telemetry(): LiveMessage[];
  /** Resolves with the close code and reason once the connection ended. */
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves once `predicate` holds for the messages received (checked on every frame). */
  until(predicate: (messages: LiveMessage[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function recordingSubscriber(
  url: string,
  streamId: string,
  token: string,
): Promise<RecordingSubscriber> {
  const frames: LiveMessage[][] = [];
  const messages: LiveMessage[] = [];
  const waiters = new Set<() => void>();
  let settleClosed: (value: { code: number; reason: string }) => void = () => {};
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    settleClosed = resolve;
  });
  const subscription = await subscribeLiveFeed({
    url,
    parameters: { streamId },
    query: { token },
    onMessage(frame) {
      frames.push(frame as LiveMessage[]);
      messages.push(...(frame as LiveMessage[]));
      for (const waiter of waiters) waiter();
    },
    onClose: (code, reason) => settleClosed({ code, reason }),
  });
  return {
    frames,
    messages,
    telemetry: () => messages.filter((message) => message.type === 'telemetry'),
    closed,
    until(predicate, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(messages)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`condition not reached after ${messages.length} messages`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => subscription.close(),
  };
}
