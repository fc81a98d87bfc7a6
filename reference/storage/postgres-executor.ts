import pg from 'pg';
import { refuseClose, type SqlExecutor } from './sql-executor.js';

/** A pool of connections to a PostgreSQL server; a transaction holds one connection from BEGIN to COMMIT. */
export function openPostgresExecutor(connectionString: string): SqlExecutor {
  const pool = new pg.Pool({ connectionString });
  // An idle connection that breaks (server restart) emits `error`; unheard, that would end the process. The next
  // query gets a fresh connection or its own error.
  pool.on('error', () => {});
  return {
    async query<Row>(text: string, params: readonly unknown[] = []) {
      return (await pool.query(text, [...params])).rows as Row[];
    },
    async executeScript(script) {
      await pool.query(script);
    },
    async transaction(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(clientExecutor(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A failed ROLLBACK means the connection is unusable: release destroys it instead of pooling it.
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}

function clientExecutor(client: pg.PoolClient): SqlExecutor {
  const executor: SqlExecutor = {
    async query<Row>(text: string, params: readonly unknown[] = []) {
      return (await client.query(text, [...params])).rows as Row[];
    },
    async executeScript(script) {
      await client.query(script);
    },
    transaction: (work) => work(executor),
    close: refuseClose,
  };
  return executor;
}
