// The Store contract, run against the embedded default (PGlite in a temporary directory) and against a throwaway
// PostgreSQL cluster when one can be started here; plus a restart test: acknowledged writes survive a SIGKILL.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openExecutor, type StoreLocation } from '../reference/storage/open-store.js';
import type { SqlExecutor } from '../reference/storage/sql-executor.js';
import { createSqlStore } from '../reference/storage/sql-store.js';
import type { Store } from '../reference/storage/store.js';
import { type KilledWriter, runKilledWriter } from '../reference/storage/testing/killed-writer.js';
import { createMemoryStore } from '../reference/storage/testing/memory-store.js';
import { startPostgresServer } from '../reference/storage/testing/postgres-server.js';
import { type ContractContext, describeStoreContract } from '../reference/storage/testing/store-contract.js';

/** Opens the store for a suite in beforeAll and closes it in afterAll; cases reach it through the context. */
function openForSuite(prepare: () => Promise<StoreLocation>, cleanUp: () => Promise<void>): ContractContext {
  let executor: SqlExecutor | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    const location = await prepare();
    const started = performance.now();
    executor = await openExecutor(location);
    store = createSqlStore(executor);
    console.info(
      `storage-contract: ${location.kind} store open in ${Math.round(performance.now() - started)} ms`,
    );
  });
  afterAll(async () => {
    await store?.close();
    await cleanUp();
  });
  const opened = <Value>(value: Value | undefined): Value => {
    if (value === undefined) throw new Error('the store is not open (beforeAll failed)');
    return value;
  };
  return { store: () => opened(store), executor: () => opened(executor) };
}

// The embedded suite reopens a data directory whose writer was SIGKILLed mid-insert: one PGlite initdb serves both
// the restart check and the contract, and the contract then runs on a database that went through a crash.
describe('Store contract: embedded (PGlite), reopened after a SIGKILL', () => {
  // Created in beforeAll, not at collection, so a run that filters this suite out leaves no directory behind.
  let directory: string | undefined;
  let written: KilledWriter | undefined;
  const context = openForSuite(
    async () => {
      directory = mkdtempSync(join(tmpdir(), 'storage-pglite-'));
      const dataDir = join(directory, 'data');
      const started = performance.now();
      written = await runKilledWriter(dataDir, 40, 100_000);
      const elapsed = Math.round(performance.now() - started);
      console.info(
        `storage-contract: writer acknowledged ${written.acknowledged.length} inserts, killed at ${elapsed} ms`,
      );
      return { kind: 'embedded', dataDir };
    },
    async () => {
      if (directory) rmSync(directory, { recursive: true, force: true });
    },
  );

  it('keeps every insert that was acknowledged before the kill', async () => {
    expect(written?.signal).toBe('SIGKILL');
    const { accountId, acknowledged } = written ?? { accountId: '', acknowledged: [] };
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    const missing: string[] = [];
    for (const id of acknowledged) {
      if ((await context.store().events.get(accountId, id)) === null) missing.push(id);
    }
    expect(missing).toEqual([]);
  });

  describeStoreContract(context);
});

const postgres = await startPostgresServer();
if ('unavailable' in postgres)
  console.warn(`storage-contract: PostgreSQL cases skipped: ${postgres.unavailable}`);
const describeOnPostgres = 'unavailable' in postgres ? describe.skip : describe;

describeOnPostgres('Store contract: PostgreSQL', () => {
  const connectionString = 'connectionString' in postgres ? postgres.connectionString : '';
  const context = openForSuite(
    async () => ({ kind: 'postgres', connectionString }),
    async () => {
      if ('stop' in postgres) await postgres.stop();
    },
  );
  describeStoreContract(context);

  it('two nodes opening one fresh database at once apply each migration once', async () => {
    const database = `fresh_${Date.now()}`;
    await context.executor().query(`CREATE DATABASE ${database}`);
    const freshDatabase = new URL(connectionString);
    freshDatabase.pathname = `/${database}`;
    const location: StoreLocation = { kind: 'postgres', connectionString: freshDatabase.href };
    const executors = await Promise.all([openExecutor(location), openExecutor(location)]);
    const migrations = readdirSync(new URL('../reference/storage/migrations/', import.meta.url));
    for (const executor of executors) {
      const versions = await executor.query<{ version: string }>('SELECT version FROM schema_migrations');
      expect(versions.map((row) => row.version).sort()).toEqual(migrations.sort());
      await executor.close();
    }
  });
});

// The in-memory store of tests and benchmarks keeps the same contract, so a benchmark on it measures the HTTP stack
// with storage semantics intact.
describe('Store contract: in-memory (tests and benchmarks only)', () => {
  const store = createMemoryStore();
  describeStoreContract({
    store: () => store,
    executor: () => {
      throw new Error('the in-memory store has no SQL executor');
    },
    withoutSql: true,
  });
});
