import { problem } from '../problems.js';

/**
 * The row, or the spec's 404 for it. Another account's id reaches here as null too, so it is answered exactly like
 * a missing one.
 */
export function found<Row>(row: Row | null, kind: string, id: string, param?: string): Row {
  if (row === null) throw problem('resource_missing', `No such ${kind}: ${id}.`, param);
  return row;
}
