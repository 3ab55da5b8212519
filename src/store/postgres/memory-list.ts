/**
 * Listing memories in creation order (ties in storing order), a page found by offset or by a
 * cursor memory, as ../sqlite/memory-list.ts does: a cursor page is an index range read from
 * the cursor on, so a page deep into a long list costs what the first one does.
 */
import { InvalidInputError } from '../../errors.js';
import type { MemoryFilter } from '../memory-filter.js';
import type { ListOptions } from '../memory-store.js';
import type { MemoryRow } from '../sqlite/rows.js';
import type { Queryable } from './connection.js';
import { filterClause, Params } from './filter-clause.js';

/** Reads memory rows: `tail` follows `SELECT … FROM memories m`. */
export type ReadMemoryRows = (tail: string, params: readonly unknown[]) => Promise<MemoryRow[]>;

/** The rows of one page of `filter`'s memories, in `options.order`. */
export async function listMemoryRows(
  db: Queryable,
  filter: MemoryFilter,
  options: ListOptions,
  read: ReadMemoryRows,
): Promise<MemoryRow[]> {
  const params = new Params();
  const where = filterClause(filter, 'm', params);
  const newest = options.order !== 'oldest';
  const limit = Math.max(0, options.limit);
  const cursorId = options.after ?? options.before;
  if (cursorId === undefined) {
    const order = newest ? 'DESC' : 'ASC';
    return read(
      `WHERE ${where} ORDER BY m.created_at ${order}, m.rowid ${order}
       LIMIT ${params.add(limit)} OFFSET ${params.add(Math.max(0, options.offset ?? 0))}`,
      params.values,
    );
  }
  if ((options.after !== undefined && options.before !== undefined) || (options.offset ?? 0) > 0) {
    throw new InvalidInputError('a page is found by one of offset, after or before: send only one');
  }
  const found = await db.query(`SELECT created_at, rowid FROM memories WHERE tenant = $1 AND id = $2`, [filter.tenant, cursorId]);
  const cursor = found.rows[0] as { created_at: number; rowid: number } | undefined;
  if (!cursor) {
    throw new InvalidInputError(`no memory with id ${cursorId.slice(0, 100)} to page from: start again from the first page`);
  }
  // Reading on (after) goes the list's way from the cursor; reading back (before) goes the
  // other way and turns the page round.
  const forward = options.before === undefined;
  const descending = newest === forward;
  const order = descending ? 'DESC' : 'ASC';
  const rows = await read(
    `WHERE ${where} AND (m.created_at, m.rowid) ${descending ? '<' : '>'} (${params.add(cursor.created_at)}, ${params.add(cursor.rowid)})
     ORDER BY m.created_at ${order}, m.rowid ${order} LIMIT ${params.add(limit)}`,
    params.values,
  );
  return forward ? rows : rows.reverse();
}
