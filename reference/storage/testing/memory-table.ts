import { type Page, type PageRequest, pageLimit, type ResourceTable } from '../store.js';

/**
 * Undo steps of the transaction in progress (null outside one). Every write of the in-memory store goes through
 * `write`/`erase`, which remember the previous value, so a failed transaction puts every map back as it was.
 */
export class Journal {
  private undo: Array<() => void> | null = null;

  write<Key, Value>(map: Map<Key, Value>, key: Key, value: Value): void {
    this.remember(map, key);
    map.set(key, value);
  }

  erase<Key, Value>(map: Map<Key, Value>, key: Key): void {
    this.remember(map, key);
    map.delete(key);
  }

  /** Runs `work` with every write journaled; on a throw, undoes them newest first and rethrows. */
  async within<T>(work: () => Promise<T>): Promise<T> {
    if (this.undo !== null) return work();
    const undo: Array<() => void> = [];
    this.undo = undo;
    try {
      const result = await work();
      this.undo = null;
      return result;
    } catch (error) {
      for (const step of undo.reverse()) step();
      this.undo = null;
      throw error;
    }
  }

  private remember<Key, Value>(map: Map<Key, Value>, key: Key): void {
    if (this.undo === null) return;
    const had = map.has(key);
    const previous = map.get(key);
    this.undo.push(() => (had ? map.set(key, previous as Value) : map.delete(key)));
  }
}

/** A stored row with its insertion sequence, which orders lists (as `seq` does in SQL). */
export interface Entry<Row> {
  seq: number;
  row: Row;
}

export interface MemoryTableShape<Row> {
  /** Filter fields that also scope a cursor (records per report, deliveries per webhook). */
  cursorScope: readonly string[];
  /** Fields stored as timestamps: kept as ISO 8601 with milliseconds, as the SQL store returns them. */
  timestamps: readonly string[];
  /** Fields computed on read (a report's record count); returns a new row, leaving the stored one alone. */
  derive?: (row: Readonly<Row>) => Row;
}

let sequence = 0;
const nextSequence = () => {
  sequence += 1;
  return sequence;
};

/** The last timestamp normalised and its result: rows written in one instant carry the same text (a created row's
 * `createdAt` is the clock's, already normal), so most writes skip a parse and a format. */
let lastTimestamp = '';
let lastNormalised = '';

const normalisedTimestamp = (value: string): string => {
  if (value !== lastTimestamp) {
    lastNormalised = new Date(value).toISOString();
    lastTimestamp = value;
  }
  return lastNormalised;
};

const normalised = <Row>(row: Row, timestamps: readonly string[]): Row => {
  const copy = { ...row } as Record<string, unknown>;
  for (const field of timestamps) {
    const value = copy[field];
    if (typeof value === 'string') copy[field] = normalisedTimestamp(value);
  }
  return copy as Row;
};

/** Rows keyed by id, in insertion order; shared by the owned tables and the lookup tables. */
export class MemoryTable<Row extends { id: string }> {
  readonly entries = new Map<string, Entry<Row>>();

  constructor(
    readonly journal: Journal,
    readonly shape: MemoryTableShape<Row>,
  ) {}

  read(entry: Entry<Row> | undefined): Row | null {
    if (entry === undefined) return null;
    // `derive` returns a new object, so the stored row is copied once either way.
    return this.shape.derive ? this.shape.derive(entry.row) : { ...entry.row };
  }

  insert(row: Row): Row {
    if (this.entries.has(row.id)) throw new Error(`duplicate key: ${row.id}`);
    const entry = { seq: nextSequence(), row: normalised(row, this.shape.timestamps) };
    this.journal.write(this.entries, row.id, entry);
    return this.read(entry) as Row;
  }

  /** Replaces the fields given (undefined ones left alone); null when there is no such row. */
  change(id: string, changes: Partial<Row>): Row | null {
    const entry = this.entries.get(id);
    if (entry === undefined) return null;
    const defined = Object.entries(changes).filter(([field, value]) => value !== undefined && field !== 'id');
    const row = normalised({ ...entry.row, ...Object.fromEntries(defined) }, this.shape.timestamps);
    const updated = { seq: entry.seq, row };
    this.journal.write(this.entries, id, updated);
    return this.read(updated);
  }

  remove(id: string): boolean {
    if (!this.entries.has(id)) return false;
    this.journal.erase(this.entries, id);
    return true;
  }

  /** Rows matching `keep`, oldest first. */
  select(keep: (row: Row) => boolean): Row[] {
    const rows: Row[] = [];
    for (const entry of this.entries.values()) if (keep(entry.row)) rows.push(this.read(entry) as Row);
    return rows;
  }
}

type Owned = { id: string; accountId: string };

/** `filter`'s entries taken once for a whole listing, not once per row compared. */
const matchesAll = (row: object, conditions: readonly [string, unknown][]) =>
  conditions.every(
    ([field, value]) => value === undefined || (row as Record<string, unknown>)[field] === value,
  );

/** Oldest first by createdAt, ties by insertion: the list order of the SQL store's `listPage`, reversed. */
type Listed = Owned & { createdAt: string };
// Normalised ISO 8601 timestamps (see `normalised`) compare as strings.
const listOrder = <Row extends Listed>(left: Entry<Row>, right: Entry<Row>) =>
  (left.row.createdAt < right.row.createdAt ? -1 : left.row.createdAt > right.row.createdAt ? 1 : 0) ||
  left.seq - right.seq;

/** The entry a cursor names (undefined: no cursor; null: not an item of this list, also of another scope). A function of
 * its own, not a closure made per listing: every list request runs it. */
function cursorEntry<Row extends Listed>(
  table: MemoryTable<Row>,
  accountId: string,
  filter: object,
  id: string | undefined,
): Entry<Row> | null | undefined {
  if (id === undefined) return undefined;
  const entry = table.entries.get(id);
  if (entry === undefined || entry.row.accountId !== accountId) return null;
  const scope = Object.entries(filter).filter(([field]) => table.shape.cursorScope.includes(field));
  return matchesAll(entry.row, scope) ? entry : null;
}

/** A page of an account's rows, newest first; the same rules as the SQL store's `listPage`. */
function listPage<Row extends Listed>(
  table: MemoryTable<Row>,
  accountId: string,
  page: PageRequest,
  filter: object,
): Page<Row> | null {
  const limit = pageLimit(page);
  const after = cursorEntry(table, accountId, filter, page.after);
  const before = cursorEntry(table, accountId, filter, page.before);
  if (after === null || before === null) return null;
  const chosen: Entry<Row>[] = [];
  const conditions = Object.entries(filter);
  for (const entry of table.entries.values()) {
    if (entry.row.accountId !== accountId || !matchesAll(entry.row, conditions)) continue;
    if (after !== undefined && listOrder(entry, after) >= 0) continue;
    if (before !== undefined && listOrder(entry, before) <= 0) continue;
    chosen.push(entry);
  }
  chosen.sort(listOrder);
  const backwards = page.after === undefined && page.before !== undefined;
  // Sorted oldest first: newest first is from the end; `before` alone wants the ones nearest the cursor.
  const ordered = backwards ? chosen : chosen.reverse();
  const items = ordered.slice(0, limit).map((entry) => table.read(entry) as Row);
  return { items: backwards ? items.reverse() : items, hasMore: ordered.length > limit };
}

/** The ResourceTable over one MemoryTable: every read and write scoped to the account. */
export function ownedMemoryTable<Row extends Listed, Filter extends object>(
  table: MemoryTable<Row>,
  onDelete: (row: Row) => void = () => {},
): ResourceTable<Row, Filter> {
  const owned = (accountId: string, id: string) => {
    const entry = table.entries.get(id);
    return entry !== undefined && entry.row.accountId === accountId ? entry : undefined;
  };
  return {
    insert: async (row) => table.insert(row),
    get: async (accountId, id) => table.read(owned(accountId, id)),
    list: async (accountId, page, filter) => listPage(table, accountId, page, filter ?? {}),
    update: async (accountId, id, changes) =>
      owned(accountId, id) === undefined ? null : table.change(id, changes as Partial<Row>),
    async delete(accountId, id) {
      const entry = owned(accountId, id);
      if (entry === undefined) return false;
      onDelete(entry.row);
      return table.remove(id);
    },
  };
}
