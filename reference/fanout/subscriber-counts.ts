import type { Stream } from '../../generated/types/schemas.js';
import type { FanoutBus } from './fanout-bus.js';

/**
 * How many subscribers a stream has, told to its subscribers (a status message) and stored (x-connection-rules). In
 * one process that is this process's count; on several nodes it is the sum over every node (ADR 0023).
 */
export interface SubscriberCounts {
  /**
   * This node now has `local` subscribers of the stream: publishes the status message with the stream's count over
   * every node when `announce` (not while the service stops), and returns that count.
   */
  changed(
    streamId: string,
    status: Stream['status'],
    local: number,
    announce: boolean,
  ): number | Promise<number>;
  /** The count over every node as it is now, for a stored count to end at; null in-process (the last change is it). */
  current(streamId: string, local: number): Promise<number> | null;
}

/** One process: its own count is the stream's, and the status message goes through the bus like any other. */
export class LocalSubscriberCounts implements SubscriberCounts {
  constructor(private readonly bus: FanoutBus) {}

  changed(streamId: string, status: Stream['status'], local: number, announce: boolean): number {
    if (announce) this.bus.publish({ type: 'status', streamId, status, subscriberCount: local });
    return local;
  }

  current(): null {
    return null;
  }
}
