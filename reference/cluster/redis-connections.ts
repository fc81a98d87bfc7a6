import { Redis } from 'ioredis';

/**
 * The two connections a node keeps to Redis: one for commands (auto-pipelined, so the publishes of one event-loop
 * turn leave in one write) and one in subscriber mode (RESP2 gives a subscribed connection to pub/sub alone).
 * ioredis reconnects both and re-subscribes the subscriber's channels by itself.
 */
export interface RedisConnections {
  commands: Redis;
  subscriber: Redis;
  close(): Promise<void>;
}

function connection(url: string, name: string): Redis {
  const redis = new Redis(url, { connectionName: name, enableAutoPipelining: true, lazyConnect: true });
  // Without a listener an `error` event would end the process; ioredis retries by itself.
  redis.on('error', (error: Error) => console.error(`redis (${name}):`, error.message));
  return redis;
}

/** Connects both; rejects when Redis cannot be reached at start (a node must not run half-clustered). */
export async function openRedisConnections(url: string, nodeId: string): Promise<RedisConnections> {
  const commands = connection(url, `telemetry-${nodeId}`);
  const subscriber = connection(url, `telemetry-${nodeId}-sub`);
  try {
    await Promise.all([commands.connect(), subscriber.connect()]);
  } catch (error) {
    commands.disconnect();
    subscriber.disconnect();
    throw new Error(`cannot reach Redis at ${url}: ${(error as Error).message}`);
  }
  return {
    commands,
    subscriber,
    async close() {
      await Promise.allSettled([commands.quit(), subscriber.quit()]);
    },
  };
}
