/** Every key and channel the cluster uses, under one prefix so a shared Redis can hold other data beside it. */
const prefix = 'telemetry:';

export const redisKeys = {
  /** The last `seq` given to a stream's live messages (INCR). */
  sequence: (streamId: string) => `${prefix}seq:${streamId}`,
  /** A stream's live messages, each `<seq>\n<JSON>`. */
  liveChannel: (streamId: string) => `${prefix}live:${streamId}`,
  /** Which node holds a stream's device connection; expires unless refreshed. */
  deviceLease: (streamId: string) => `${prefix}lease:${streamId}`,
  /** A credential's fixed rate window: a hash of its start (service clock) and count. */
  rateWindow: (key: string) => `${prefix}rate:${key}`,
  /** Each node's count of a stream's subscribers (field: the node's instance). */
  subscriberCounts: (streamId: string) => `${prefix}subscribers:${streamId}`,
  /** Present while a stream's subscriberCount coalescing window is open (set by the message that opened it). */
  countWindow: (streamId: string) => `${prefix}count-window:${streamId}`,
  /** Present while a node instance is alive (expires unless refreshed). */
  nodeAlive: (instance: string) => `${prefix}node:${instance}`,
  /** The version of an account's report feeds, replaced after each change to its reports or records. */
  feedVersion: (accountId: string) => `${prefix}feed:${accountId}`,
  /** Streams deleted through one node: every node closes its own subscribers of them. */
  streamDeletedChannel: `${prefix}stream-deleted`,
  /** Changed API keys and accounts: every node drops them from its caches. */
  invalidationChannel: `${prefix}invalidate`,
} as const;
