import type { SqlExecutor } from '../../sql-executor.js';
import type { Page, PageRequest, Store } from '../../store.js';

/** What every contract case runs against: one open store per backend, shared by the whole suite. */
export interface ContractContext {
  store(): Store;
  /** The executor under the store, for checks below the Store interface (migrations). */
  executor(): SqlExecutor;
  /** True for a store with no SQL under it (the in-memory test store): the migration case does not apply. */
  withoutSql?: boolean;
}

/** The part of a ResourceTable the generic cases use, whatever its filter type. */
export interface OwnedTable<Row> {
  insert(row: Row): Promise<Row>;
  get(accountId: string, id: string): Promise<Row | null>;
  list(accountId: string, page: PageRequest): Promise<Page<Row> | null>;
  update(accountId: string, id: string, changes: Partial<Omit<Row, 'id' | 'accountId'>>): Promise<Row | null>;
  delete(accountId: string, id: string): Promise<boolean>;
}
