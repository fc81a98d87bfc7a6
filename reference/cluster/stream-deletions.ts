import type { Redis } from 'ioredis';
import type { StreamLifecycle, StreamLifecycleEvents } from '../services/stream-lifecycle.js';
import type { ChannelSubscriptions } from './channel-subscriptions.js';
import { redisKeys } from './redis-keys.js';

export interface SharedStreamLifecycle {
  /** What the REST API tells: the deletion is heard on this node at once and announced to every other node. */
  lifecycle: StreamLifecycle;
  close(): void;
}

/**
 * A stream deleted through one node closes its subscribers on every node with the spec's close code (ADR 0023):
 * each node's live feed holds only its own subscribers, so the deleting node publishes the deletion and every other
 * node tells its own live parts on receipt (one pub/sub hop). A node that misses the message (Redis unreachable)
 * keeps those subscribers open until they leave; nothing more is published for a deleted stream.
 */
export async function shareStreamDeletions(
  commands: Redis,
  subscriptions: ChannelSubscriptions,
  local: StreamLifecycleEvents,
  nodeId: string,
): Promise<SharedStreamLifecycle> {
  const onMessage = (raw: string) => {
    const { from, streamId } = JSON.parse(raw) as { from: string; streamId: string };
    if (from !== nodeId) local.streamDeleted(streamId);
  };
  await subscriptions.add(redisKeys.streamDeletedChannel, onMessage);
  return {
    lifecycle: {
      streamDeleted(streamId) {
        local.streamDeleted(streamId);
        commands
          .publish(redisKeys.streamDeletedChannel, JSON.stringify({ from: nodeId, streamId }))
          .catch((error: Error) => console.error('stream deletions (redis):', error.message));
      },
    },
    close() {
      subscriptions.remove(redisKeys.streamDeletedChannel, onMessage);
    },
  };
}
