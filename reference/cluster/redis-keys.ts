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
  /** Changed API keys and accounts: every node drops them from its caches. */
  invalidationChannel: `${prefix}invalidate`,
} as const;
