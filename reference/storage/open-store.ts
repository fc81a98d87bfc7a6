import { cachedStore } from './cached-store.js';
import { migrate } from './migrate.js';
import { openPgliteExecutor } from './pglite-executor.js';
import { copyPgliteTemplate } from './pglite-template.js';
import { openPgliteThreadExecutor } from './pglite-thread-executor.js';
import { openPostgresExecutor } from './postgres-executor.js';
import type { SqlExecutor } from './sql-executor.js';
import { createSqlStore } from './sql-store.js';
import type { Store } from './store.js';

/** Where the data lives: a directory of the embedded PGlite database (the default), or a PostgreSQL server. */
export type StoreLocation =
  | {
      kind: 'embedded';
      dataDir: string;
      /**
       * PGlite on a worker thread of its own (ADR 0030), the default; `false` runs it on the caller's thread
       * (comparisons such as bench/measure/delivery-threads.ts).
       */
      thread?: boolean;
    }
  | { kind: 'postgres'; connectionString: string };

/** The executor for a location, with the schema migrated to the current version. */
export async function openExecutor(location: StoreLocation): Promise<SqlExecutor> {
  if (location.kind === 'embedded') await copyPgliteTemplate(location.dataDir);
  const executor =
    location.kind === 'embedded'
      ? location.thread !== false
        ? await openPgliteThreadExecutor(location.dataDir)
        : await openPgliteExecutor(location.dataDir)
      : openPostgresExecutor(location.connectionString);
  try {
    await migrate(executor);
  } catch (error) {
    await executor.close();
    throw error;
  }
  return executor;
}

/** Opens the store; one data directory must be open in one process at a time (PGlite is a single connection). */
export async function openStore(location: StoreLocation): Promise<Store> {
  const store = createSqlStore(await openExecutor(location));
  return location.kind === 'embedded' ? cachedStore(store) : store;
}
