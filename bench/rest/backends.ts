// The three storage backends the REST benchmark runs on, each with its reference service and its bare side's storage.
import path from 'node:path';
import { type RunningService, start } from '../../reference/index.js';
import { openExecutor } from '../../reference/storage/open-store.js';
import { createMemoryStore } from '../../reference/storage/testing/memory-store.js';
import { startPostgresServer } from '../../reference/storage/testing/postgres-server.js';
import { type BareStorage, noStorage, sqlStorage, storeStorage } from './bare-server.js';

export interface BackendRun {
  reference: RunningService;
  bareStorage(reportCount: number): Promise<BareStorage>;
  /** A second bare side that stores nothing, measured beside for comparison and not judged (the in-memory backend). */
  unstoredStorage?(reportCount: number): Promise<BareStorage>;
  /** Stops what the backend started besides the reference (the bare side's database, a PostgreSQL server). */
  close(): Promise<void>;
}

export interface Backend {
  name: 'memory' | 'pglite' | 'postgres';
  label: string;
  baseline: string;
  /** Issue 16: the reference's rate as a share of the bare route's. */
  target: number;
  /** Starts the reference on `dataDir`, or says why this backend cannot run here. */
  open(dataDir: string, host: string): Promise<BackendRun | { unavailable: string }>;
}

const memory: Backend = {
  name: 'memory',
  label: 'in-memory store (overhead of the generated server and hooks)',
  baseline: 'bare Fastify + same Ajv + same rows in an in-memory store, same JSON',
  target: 0.8,
  async open(dataDir, host) {
    const reference = await start({ dataDir, host, store: createMemoryStore() });
    return {
      reference,
      // A store of the bare side's own, as the durable backends give it a database of its own.
      bareStorage: (count) => storeStorage(createMemoryStore(), count),
      unstoredStorage: async (count) => noStorage(count),
      close: async () => {},
    };
  },
};

const pglite: Backend = {
  name: 'pglite',
  label: 'durable (PGlite)',
  baseline: 'bare Fastify + same Ajv + same SQL through PGlite',
  target: 0.7,
  async open(dataDir, host) {
    const reference = await start({ dataDir, host });
    const executor = await openExecutor({ kind: 'embedded', dataDir: path.join(dataDir, 'bare-database') });
    return {
      reference,
      bareStorage: (count) => sqlStorage(executor, count),
      close: () => executor.close(),
    };
  },
};

const postgres: Backend = {
  name: 'postgres',
  label: 'durable (PostgreSQL, pg)',
  baseline: 'bare Fastify + same Ajv + same SQL through pg',
  target: 0.7,
  async open(dataDir, host) {
    const server = await startPostgresServer();
    if ('unavailable' in server) return server;
    try {
      const reference = await start({ dataDir, host, postgresUrl: server.connectionString });
      const bareUrl = new URL(server.connectionString);
      bareUrl.pathname = '/bare_bench';
      const admin = await openExecutor({ kind: 'postgres', connectionString: server.connectionString });
      await admin.query('CREATE DATABASE bare_bench');
      await admin.close();
      const executor = await openExecutor({ kind: 'postgres', connectionString: bareUrl.href });
      return {
        reference,
        bareStorage: (count) => sqlStorage(executor, count),
        close: async () => {
          await executor.close();
          await server.stop();
        },
      };
    } catch (error) {
      await server.stop();
      throw error;
    }
  },
};

export const backends: readonly Backend[] = [memory, pglite, postgres];
