/**
 * How a row type maps onto a table: one entry per field, so the INSERT, SELECT and UPDATE statements and the decoding
 * of results are derived from one description instead of being written out per table.
 */
export type ColumnKind = 'text' | 'integer' | 'boolean' | 'json' | 'timestamp';

export interface Column {
  /** The column's name in SQL. */
  name: string;
  kind: ColumnKind;
  /** A SQL expression computed on read instead of a stored column; `t` names the table's row. */
  derived?: string;
}

export interface TableShape<Row> {
  table: string;
  columns: { readonly [Field in keyof Row]-?: Column };
}

export interface OwnedTableShape<Row> extends TableShape<Row> {
  /**
   * Filter fields that bound a list's cursors as well as its items. A list of one report's records is that report's
   * list, so a cursor naming another report's record names nothing; a `status` filter only narrows the items, so a
   * cursor stays valid when its item's status changed between two pages.
   */
  cursorScope: readonly string[];
}

export const column = (name: string, kind: ColumnKind = 'text'): Column => ({ name, kind });

export function fieldsOf<Row>(shape: TableShape<Row>): [string, Column][] {
  return Object.entries<Column>(shape.columns);
}

/** The fields that are stored (written by INSERT and UPDATE), not derived. */
export function storedFieldsOf<Row>(shape: TableShape<Row>): [string, Column][] {
  return fieldsOf(shape).filter(([, entry]) => entry.derived === undefined);
}

/** `t.plan AS "plan", (…) AS "recordCount"`: results come back keyed by field name. */
export function selectList<Row>(shape: TableShape<Row>): string {
  return fieldsOf(shape)
    .map(([field, entry]) => `${entry.derived ? `(${entry.derived})` : `t.${entry.name}`} AS "${field}"`)
    .join(', ');
}

export function decodeRow<Row>(shape: TableShape<Row>, record: Record<string, unknown>): Row {
  const row: Record<string, unknown> = {};
  for (const [field, entry] of fieldsOf(shape)) row[field] = decodeValue(entry.kind, record[field]);
  // The column map names every field of Row with its kind, so the decoded object has Row's shape.
  return row as Row;
}

// pg returns bigint as a string and PGlite as a number, both return timestamptz as a Date: rows carry one form.
function decodeValue(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (kind === 'timestamp') return (value instanceof Date ? value : new Date(String(value))).toISOString();
  if (kind === 'integer') return Number(value);
  if (kind === 'json' && typeof value === 'string') return JSON.parse(value);
  return value;
}

/** Collects statement parameters and hands out their placeholders. */
export class SqlParameters {
  readonly values: unknown[] = [];

  add(value: unknown, kind: ColumnKind = 'text'): string {
    // JSON goes as text: pg would turn a JS array into a PostgreSQL array literal, not into JSON.
    this.values.push(
      value === undefined || value === null ? null : kind === 'json' ? JSON.stringify(value) : value,
    );
    const cast = kind === 'json' ? '::jsonb' : kind === 'timestamp' ? '::timestamptz' : '';
    return `$${this.values.length}${cast}`;
  }
}

/** A field's value on a row or a change set, whatever the row type. */
export function fieldValue(source: object, field: string): unknown {
  return Reflect.get(source, field);
}
