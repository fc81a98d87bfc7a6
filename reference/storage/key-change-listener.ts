import pg from 'pg';
import {
  type CacheChange,
  type ChangeWitness,
  clearCaches,
  forgetChange,
  type StoreCaches,
} from './cached-store.js';
import { ChangeEchoes, parseNotification } from './change-echoes.js';

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

/**
 * One connection of its own that LISTENs for key and account changes, whoever wrote them, and drops them from
 * `caches` as they arrive (ADR 0022). While it is not listening (before the first LISTEN, after the connection
 * dropped, until it listens again) the caches are cleared and `trusted` is false, so nothing stale is served from
 * them and nothing is remembered that a missed notification could have made stale.
 */
export class KeyChangeListener implements ChangeWitness {
  readonly #echoes: ChangeEchoes;
  readonly #reconnectMilliseconds: number;
  readonly #onError: (error: Error) => void;
  #client: pg.Client | undefined;
  #listening = false;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly connectionString: string,
    /** The caches it empties. */
    readonly caches: StoreCaches,
    options: KeyChangeListenerOptions = {},
  ) {
    this.#echoes = new ChangeEchoes(options.echoMilliseconds ?? keyChangeDefaults.echoMilliseconds);
    this.#reconnectMilliseconds = options.reconnectMilliseconds ?? keyChangeDefaults.reconnectMilliseconds;
    this.#onError = options.onError ?? ((error) => console.error('key cache (listen):', error.message));
  }

  get trusted(): boolean {
    return this.#listening;
  }

  expect(change: CacheChange): { heard(): Promise<void>; cancel(): void } {
    return this.#listening ? this.#echoes.expect(change) : { heard: async () => {}, cancel: () => {} };
  }

  /** Connects and LISTENs; from then on reconnects by itself until `close`. */
  async connect(): Promise<void> {
    const connection = new pg.Client({
      connectionString: this.connectionString,
      keepAlive: true,
      application_name: keyChangeApplicationName,
    });
    this.#client = connection;
    connection.on('notification', (message) => this.#notified(message));
    connection.on('error', (error) => this.#dropped(connection, error));
    connection.on('end', () => this.#dropped(connection, new Error('the listening connection ended')));
    try {
      await connection.connect();
      await connection.query(`LISTEN ${keyChangeChannel}`);
    } catch (error) {
      this.#dropped(connection, error as Error);
      throw error;
    }
    if (connection !== this.#client || this.#closed) return;
    // Changes made while nobody listened are unknown: start empty.
    clearCaches(this.caches);
    this.#listening = true;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const connection = this.#client;
    this.#client = undefined;
    this.#listening = false;
    this.#echoes.release();
    await connection?.end().catch(() => {});
  }

  #notified(message: pg.Notification): void {
    if (message.channel !== keyChangeChannel) return;
    const notified = parseNotification(message.payload);
    if ('all' in notified) clearCaches(this.caches);
    else forgetChange(this.caches, 'accountId' in notified ? notified : { apiKeyHash: notified.apiKeyHash });
    this.#echoes.release(notified);
  }

  #dropped(connection: pg.Client, error: Error): void {
    if (connection !== this.#client) return;
    this.#client = undefined;
    this.#listening = false;
    clearCaches(this.caches);
    // Nothing will come back on this connection; the caches are bypassed until the next LISTEN, so writes go on.
    this.#echoes.release();
    connection.removeAllListeners('notification');
    connection.end().catch(() => {});
    this.#onError(error);
    if (!this.#closed)
      this.#retry = setTimeout(() => void this.connect().catch(() => {}), this.#reconnectMilliseconds);
  }
}

/** A listener that listens; the first LISTEN must work (as the first query must), so a failed start retries nothing. */
export async function listenForKeyChanges(
  connectionString: string,
  caches: StoreCaches,
  options: KeyChangeListenerOptions = {},
): Promise<KeyChangeListener> {
  const listener = new KeyChangeListener(connectionString, caches, options);
  try {
    await listener.connect();
  } catch (error) {
    await listener.close();
    throw error;
  }
  return listener;
}
