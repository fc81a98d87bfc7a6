/**
 * The one seam between the Store and a database driver. PGlite (the embedded default) and `pg` (a PostgreSQL server)
 * both fit it, so the tables, the migrations and the contract tests are written once.
 */
export interface SqlExecutor {
  /** Runs one statement with `$1`-style parameters and returns its rows (a write's `RETURNING` rows). */
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters: a migration file. */
  executeScript(script: string): Promise<void>;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. Called on the executor
   * that `work` receives, it reuses the same transaction rather than nesting one.
   */
  transaction<T>(work: (transaction: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** What a transaction's executor answers to `close`: the transaction ends with its work, never from inside. */
export function refuseClose(): Promise<void> {
  return Promise.reject(new Error('close the store, not a transaction of it'));
}
