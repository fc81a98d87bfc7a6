import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pgliteWasmModule } from './pglite-wasm-module.js';
import { refuseClose, type SqlExecutor } from './sql-executor.js';

/**
 * PGlite on a data directory. PGlite mounts the directory through Emscripten's NODEFS, whose writes are synchronous
 * `fs.writeSync` calls, and PostgreSQL writes a commit's WAL before the statement answers; so once a query resolves
 * its writes are in the operating system's hands and survive a SIGKILL of this process. NODEFS has no fsync, so they
 * are not guaranteed to survive a power cut or a kernel crash: deployments that need that use PostgreSQL.
 */
export async function openPgliteExecutor(dataDir: string): Promise<SqlExecutor> {
  // PGlite creates only the last path segment itself.
  mkdirSync(dataDir, { recursive: true });
  // relaxedDurability must stay false: true lets a query resolve before its writes are flushed to storage.
  const database = await PGlite.create(dataDir, {
    relaxedDurability: false,
    pgliteWasmModule: await pgliteWasmModule(),
  });
  const executor: SqlExecutor = {
    async query<Row>(text: string, params: readonly unknown[] = []) {
      return (await database.query<Row>(text, [...params])).rows;
    },
    async executeScript(script) {
      await database.exec(script);
    },
    // PGlite is one connection: `transaction` holds its lock, so other queries wait until this one ends.
    transaction: (work) => database.transaction((transaction) => work(transactionExecutor(transaction))),
    close: () => database.close(),
  };
  return executor;
}

function transactionExecutor(transaction: Transaction): SqlExecutor {
  const executor: SqlExecutor = {
    async query<Row>(text: string, params: readonly unknown[] = []) {
      return (await transaction.query<Row>(text, [...params])).rows;
    },
    async executeScript(script) {
      await transaction.exec(script);
    },
    transaction: (work) => work(executor),
    close: refuseClose,
  };
  return executor;
}
