import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { accountPlanMembers } from '../../generated/types/facts.js';
import { digest } from '../auth/secrets.js';
import { isoTime, systemClock } from '../clock.js';
import { createAccount, createApiKey } from '../seed.js';
import { type RunningService, start } from '../start.js';
import { cachedStore, newStoreCaches } from './cached-store.js';
import {
  type KeyChangeListener,
  keyChangeApplicationName,
  listenForKeyChanges,
} from './key-change-listener.js';
import { openStore } from './open-store.js';
import type { Store } from './store.js';
import { startPostgresServer } from './testing/postgres-server.js';

const server = await startPostgresServer();
if ('unavailable' in server) console.warn(`skipping the key-change tests: ${server.unavailable}`);
const postgresUrl = 'unavailable' in server ? '' : server.connectionString;
const clock = systemClock();
const minute = 60_000;

/** Polls `condition` every few milliseconds for at most `milliseconds`; true once it held. */
async function within(milliseconds: number, condition: () => Promise<boolean> | boolean): Promise<boolean> {
  const deadline = Date.now() + milliseconds;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return condition();
}

/** A store with its own key cache and listener, as a node has; `reads` counts key reads that reach PostgreSQL. */
async function cachingNode(reconnectMilliseconds?: number) {
  const plain = await openStore({ kind: 'postgres', connectionString: postgresUrl });
  const reads = { keys: 0 };
  const counted: Store = {
    ...plain,
    apiKeys: {
      ...plain.apiKeys,
      findWithAccount: (hash) => {
        reads.keys += 1;
        return plain.apiKeys.findWithAccount(hash);
      },
    },
  };
  const listener: KeyChangeListener = await listenForKeyChanges(
    postgresUrl,
    newStoreCaches(undefined, minute),
    { reconnectMilliseconds, onError: () => {} },
  );
  const store = cachedStore(counted, listener.caches, undefined, listener);
  return {
    store,
    listener,
    reads,
    status: async (key: string) => (await store.apiKeys.findWithAccount(digest(key)))?.key.status,
    close: async () => {
      await listener.close();
      await plain.close();
    },
  };
}

describe.skipIf('unavailable' in server)(
  'the key cache on PostgreSQL (LISTEN/NOTIFY, ADR 0022)',
  async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'key-changes-'));
    // A running node whose cache would keep a key for a minute: only a notification explains a quick refusal.
    const node: RunningService | undefined =
      'unavailable' in server
        ? undefined
        : await start({ dataDir, postgresUrl, keyCacheMilliseconds: minute });
    const running = () => node as RunningService;
    const status = async (key: string) =>
      (await fetch(`${running().urls.baseUrl}/streams`, { headers: { authorization: `Bearer ${key}` } }))
        .status;
    const paidAccount = async () => {
      const created = await createAccount(running().dependencies.store, clock, 'paid', 'local-1');
      return created.accountId;
    };
    afterAll(async () => {
      await node?.stop();
      if (!('unavailable' in server)) await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('a key revoked through node A: A refuses it at once, the running node B as soon as it hears the notification', async () => {
      const a = await cachingNode();
      try {
        const accountId = await paidAccount();
        const created = await createApiKey(a.store, clock, accountId, 'secret');
        expect(await status(created.key)).toBe(200);
        expect(await a.status(created.key)).toBe('active');
        expect(await a.status(created.key)).toBe('active');
        expect(a.reads.keys).toBe(1);
        // revoke returns once A's own listener heard the change back.
        await a.store.apiKeys.revoke(created.id, isoTime(clock));
        const revokedAt = performance.now();
        expect(await a.status(created.key)).toBe('revoked');
        let polls = 0;
        let lastPollSent = 0;
        const refused = async () => {
          polls += 1;
          lastPollSent = performance.now();
          return (await status(created.key)) === 401;
        };
        expect(await within(1000, refused)).toBe(true);
        const answered = (performance.now() - revokedAt).toFixed(1);
        const sent = (lastPollSent - revokedAt).toFixed(1);
        console.info(
          `node B refused the revoked key: poll ${polls}, sent ${sent} ms, answered ${answered} ms after A's revoke returned`,
        );
      } finally {
        await a.close();
      }
    });

    it('`npm run keys -- keys roll` (another process, no cache of its own) and a plan changed in SQL reach a running node', async () => {
      const accountId = await paidAccount();
      const store = running().dependencies.store;
      const created = await createApiKey(store, clock, accountId, 'secret');
      expect(await status(created.key)).toBe(200);
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'reference/keys-cli.ts', 'keys', 'roll', '--key', created.id],
        { env: { ...process.env, TELEMETRY_POSTGRES_URL: postgresUrl, TELEMETRY_DATA_DIR: dataDir } },
      );
      const rolled = JSON.parse(stdout) as { revoked: string; key: string };
      expect(rolled.revoked).toBe(created.id);
      expect(await within(1000, async () => (await status(created.key)) === 401)).toBe(true);
      expect(await status(rolled.key)).toBe(200);
      // The account's plan sets the rate window: a change made by any writer is heard too.
      const limitOf = async () =>
        (
          await fetch(`${running().urls.baseUrl}/streams`, {
            headers: { authorization: `Bearer ${rolled.key}` },
          })
        ).headers.get('ratelimit-policy');
      const paidPolicy = await limitOf();
      // Raw SQL: no cache and no announcement, only the trigger.
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`UPDATE accounts SET plan = 'free' WHERE id = $1`, [accountId]);
      await client.end();
      expect(await within(1000, async () => (await limitOf()) !== paidPolicy)).toBe(true);
      expect(await limitOf()).toContain(String(accountPlanMembers.free.requestsPerMinute));
    });

    it('listening connection killed: caches cleared and bypassed, a revocation during the gap is honoured, caching resumes', async () => {
      const a = await cachingNode(1500);
      const other = await openStore({ kind: 'postgres', connectionString: postgresUrl });
      try {
        const accountId = await paidAccount();
        // Through A: its insert returns once A heard it, so no late notification drops the first read's row.
        const created = await createApiKey(a.store, clock, accountId, 'secret');
        expect(await a.status(created.key)).toBe('active');
        expect(await a.status(created.key)).toBe('active');
        expect(a.reads.keys).toBe(1);
        const admin = new pg.Client({ connectionString: postgresUrl });
        await admin.connect();
        // Every listening connection of this database (the running node's too): each must recover alike.
        const killed = await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
          [keyChangeApplicationName],
        );
        await admin.end();
        expect(killed.rowCount).toBeGreaterThanOrEqual(2);
        expect(await within(1000, () => !a.listener.trusted)).toBe(true);
        expect(a.listener.caches.keysByHash.size).toBe(0);
        // Bypassed: every read goes to PostgreSQL, and none is remembered.
        expect(await a.status(created.key)).toBe('active');
        expect(await a.status(created.key)).toBe('active');
        expect(a.reads.keys).toBe(3);
        await other.apiKeys.revoke(created.id, isoTime(clock));
        expect(a.listener.trusted).toBe(false);
        expect(await a.status(created.key)).toBe('revoked');
        expect(await status(created.key)).toBe(401);
        // Listening again: the key is read once more and then served from the cache, still revoked.
        expect(await within(10_000, () => a.listener.trusted)).toBe(true);
        const readsBefore = a.reads.keys;
        expect(await a.status(created.key)).toBe('revoked');
        expect(await a.status(created.key)).toBe('revoked');
        expect(a.reads.keys).toBe(readsBefore + 1);
      } finally {
        await other.close();
        await a.close();
      }
    });
  },
);
