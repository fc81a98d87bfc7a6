import { readdir, readFile } from 'node:fs/promises';
import type { SqlExecutor } from './sql-executor.js';

const migrationsDirectory = new URL('./migrations/', import.meta.url);
// Any constant every node agrees on: nodes starting together against one database migrate one after the other.
const migrationLockKey = 70_070_001;

/**
 * Applies the migrations not yet recorded in `schema_migrations`, in file-name order, in one transaction: either all
 * of them are applied and recorded or none. Returns the file names applied (empty when the schema is current).
 */
export async function migrate(executor: SqlExecutor): Promise<string[]> {
  const files = (await readdir(migrationsDirectory)).filter((name) => name.endsWith('.sql')).sort();
  return executor.transaction(async (transaction) => {
    await transaction.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey]);
    await transaction.executeScript(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const applied = await transaction.query<{ version: string }>('SELECT version FROM schema_migrations');
    const appliedVersions = new Set(applied.map((row) => row.version));
    const pending = files.filter((file) => !appliedVersions.has(file));
    for (const file of pending) {
      await transaction.executeScript(await readFile(new URL(file, migrationsDirectory), 'utf8'));
      await transaction.query('INSERT INTO schema_migrations (version) VALUES ($1)', [file]);
    }
    return pending;
  });
}
