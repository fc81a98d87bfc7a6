import pg from 'pg';
import {
  type CacheChange,
  type ChangeWitness,
  clearCaches,
  forgetChange,
  type StoreCaches,
} from './cached-store.js';

/** The channel `notify_key_change()` (migration 0008) sends every change of `api_keys` and `accounts` on. */
export const keyChangeChannel = 'telemetry_key_changes';
/** The listening connection's name in `pg_stat_activity`. */
export const keyChangeApplicationName = 'telemetry-key-changes';

/** Deployment settings, not interface facts. */
export const keyChangeDefaults = {
  /** How long a cached key may outlive a change never heard of (a half-open listening connection) without Redis. */
  cacheMilliseconds: 60_000,
  /** How long a write waits to hear its own change back before it answers anyway. */
  echoMilliseconds: 1000,
  /** Pause before connecting again after the listening connection dropped. */
  reconnectMilliseconds: 250,
} as const;

export interface KeyChangeListenerOptions {
  echoMilliseconds?: number | undefined;
  reconnectMilliseconds?: number | undefined;
  /** Reports a dropped or failed listening connection (stderr by default). */
  onError?: (error: Error) => void;
}

export interface KeyChangeListener extends ChangeWitness {
  /** The caches it empties. */
  caches: StoreCaches;
  close(): Promise<void>;
}

/** What a notification names, as the changes `forgetChange` takes (`all`: TRUNCATE). */
export type Notified = { all: true } | { apiKeyId: string; apiKeyHash: string } | { accountId: string };

interface Waiter {
  change: CacheChange;
  resolve(): void;
}

const matches = (notified: Notified, change: CacheChange): boolean =>
  'all' in notified ||
  ('accountId' in change
    ? 'accountId' in notified && notified.accountId === change.accountId
    : 'apiKeyId' in notified &&
      ('apiKeyId' in change
        ? notified.apiKeyId === change.apiKeyId
        : notified.apiKeyHash === change.apiKeyHash));

/**
 * One connection of its own that LISTENs for key and account changes, whoever wrote them, and drops them from
 * `caches` as they arrive (ADR 0022). While it is not listening (before the first LISTEN, after the connection
 * dropped, until it listens again) the caches are cleared and `trusted` is false, so nothing stale is served from
 * them and nothing is remembered that a missed notification could have made stale.
 */
export async function listenForKeyChanges(
  connectionString: string,
  caches: StoreCaches,
  options: KeyChangeListenerOptions = {},
): Promise<KeyChangeListener> {
  const echoMilliseconds = options.echoMilliseconds ?? keyChangeDefaults.echoMilliseconds;
  const reconnectMilliseconds = options.reconnectMilliseconds ?? keyChangeDefaults.reconnectMilliseconds;
  const onError = options.onError ?? ((error) => console.error('key cache (listen):', error.message));
  const waiters = new Set<Waiter>();
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const releaseWaiters = (notified?: Notified) => {
    for (const waiter of waiters)
      if (notified === undefined || matches(notified, waiter.change)) {
        waiters.delete(waiter);
        waiter.resolve();
      }
  };
  const onNotification = (message: pg.Notification) => {
    if (message.channel !== keyChangeChannel) return;
    const notified = parseNotification(message.payload);
    if ('all' in notified) clearCaches(caches);
    else forgetChange(caches, 'accountId' in notified ? notified : { apiKeyHash: notified.apiKeyHash });
    releaseWaiters(notified);
  };
  const dropped = (connection: pg.Client, error?: Error) => {
    if (connection !== client) return;
    client = undefined;
    listening = false;
    clearCaches(caches);
    // Nothing will come back on this connection; the caches are bypassed until the next LISTEN, so writes go on.
    releaseWaiters();
    connection.removeAllListeners('notification');
    connection.end().catch(() => {});
    if (error !== undefined) onError(error);
    if (!closed) retry = setTimeout(() => void connect().catch(() => {}), reconnectMilliseconds);
  };
  const connect = async () => {
    const connection = new pg.Client({
      connectionString,
      keepAlive: true,
      application_name: keyChangeApplicationName,
    });
    client = connection;
    connection.on('notification', onNotification);
    connection.on('error', (error) => dropped(connection, error));
    connection.on('end', () => dropped(connection, new Error('the listening connection ended')));
    try {
      await connection.connect();
      await connection.query(`LISTEN ${keyChangeChannel}`);
    } catch (error) {
      dropped(connection, error as Error);
      throw error;
    }
    if (connection !== client || closed) return;
    // Changes made while nobody listened are unknown: start empty.
    clearCaches(caches);
    listening = true;
  };

  try {
    await connect();
  } catch (error) {
    // The first LISTEN must work (as the first query must): no retries behind a failed start.
    closed = true;
    clearTimeout(retry);
    throw error;
  }
  return {
    caches,
    get trusted() {
      return listening;
    },
    expect(change) {
      if (!listening) return { heard: async () => {}, cancel: () => {} };
      let resolve = () => {};
      const heard = new Promise<void>((done) => {
        resolve = done;
      });
      const waiter: Waiter = { change, resolve };
      waiters.add(waiter);
      return {
        heard: () => bounded(heard, echoMilliseconds),
        cancel: () => waiters.delete(waiter),
      };
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const connection = client;
      client = undefined;
      listening = false;
      releaseWaiters();
      await connection?.end().catch(() => {});
    },
  };
}

/** The trigger's payload; anything else on the channel (a NOTIFY by hand) is taken as "everything may have changed". */
export function parseNotification(payload: string | undefined): Notified {
  try {
    const parsed = JSON.parse(payload ?? '') as Partial<Record<string, unknown>>;
    if (typeof parsed.accountId === 'string') return { accountId: parsed.accountId };
    if (typeof parsed.apiKeyId === 'string' && typeof parsed.apiKeyHash === 'string')
      return { apiKeyId: parsed.apiKeyId, apiKeyHash: parsed.apiKeyHash };
  } catch {
    // Not JSON: treated as below.
  }
  return { all: true };
}

/** `promise`, or nothing after `milliseconds`. */
async function bounded(promise: Promise<void>, milliseconds: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, milliseconds);
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
