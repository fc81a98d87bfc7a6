import type { StatusMessage, TelemetryMessage } from '../../generated/types/schemas.js';

/** A live message as it travels to subscribers: the bus gives it its per-stream `seq`. */
export type LiveMessage = TelemetryMessage | StatusMessage;
export type UnsequencedMessage = Omit<TelemetryMessage, 'seq'> | Omit<StatusMessage, 'seq'>;

/**
 * The seam between the writers of a stream's live messages (ingest: samples, live/idle; fan-out: subscriber counts)
 * and its readers (WebSocket subscribers, recording). The bus numbers each stream's messages 1, 2, 3, … in the order
 * it accepts them and hands every message to every listener of that stream in that order, synchronously or not, but
 * never reordered. One in-process implementation today (`InProcessFanoutBus`); a cross-node one (Redis) implements
 * the same interface later.
 */
export interface FanoutBus {
  /** Numbers the message and hands it to the stream's listeners; returns the message as sent. */
  publish(message: UnsequencedMessage): LiveMessage;
  /** Listens to one stream's messages from now on; returns the function that stops listening. */
  subscribe(streamId: string, listener: (message: LiveMessage) => void): () => void;
  /**
   * Resolves once every message published so far has reached the place where every node's listeners will hear it
   * (x-ingest-rules.acknowledgedSample); null when that is already so, as in-process, where `publish` delivers
   * synchronously. Rejects when the bus could not pass them on. A QoS 1 PUBACK waits for it.
   */
  accepted(): Promise<void> | null;
  /**
   * Cross-node buses: resolves once this node's listeners of the stream will hear every message published from now
   * on, on any node. A new subscriber is let in only then. Absent in-process (`subscribe` takes effect at once).
   */
  listening?(streamId: string): Promise<void>;
  /** Listens to every stream (recording). */
  subscribeAll(listener: (message: LiveMessage) => void): () => void;
  /** Drops a deleted stream's sequence counter (ids are never reused, so nothing would restart it). */
  forget(streamId: string): void;
  close(): Promise<void>;
}
