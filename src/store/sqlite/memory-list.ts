/**
 * Listing memories in creation order (ties in storing order), a page found by offset or by a
 * cursor memory. A cursor page is an index range read from the cursor on, so page 1,000 costs
 * what page 1 does; an offset page reads and drops every row before it.
 */
import type Database from 'better-sqlite3';

import { InvalidInputError } from '../../errors.js';
import type { MemoryFilter } from '../memory-filter.js';
import type { ListOptions } from '../memory-store.js';
import { filterClause } from './filter-clause.js';
import type { MemoryRow } from './rows.js';
import { cachedStatement } from './statement-cache.js';

/** The rows of one page of `filter`'s memories, in `options.order`. */
export function listMemoryRows(db: Database.Database, filter: MemoryFilter, options: ListOptions): MemoryRow[] {
  const where = filterClause(filter, 'm');
  const newest = options.order !== 'oldest';
  const cursorId = options.after ?? options.before;
  if (cursorId === undefined) {
    const order = newest ? 'DESC' : 'ASC';
    return cachedStatement(
      db,
      `SELECT m.* FROM memories m WHERE ${where.sql} ORDER BY m.created_at ${order}, m.rowid ${order} LIMIT ? OFFSET ?`,
    ).all(...where.params, options.limit, options.offset ?? 0) as MemoryRow[];
  }
  if ((options.after !== undefined && options.before !== undefined) || (options.offset ?? 0) > 0) {
    throw new InvalidInputError('a page is found by one of offset, after or before: send only one');
  }
  const cursor = cachedStatement(db, `SELECT created_at, rowid FROM memories WHERE tenant = ? AND id = ?`)
    .raw()
    .get(filter.tenant, cursorId) as [number, number] | undefined;
  if (!cursor) {
    throw new InvalidInputError(`no memory with id ${cursorId.slice(0, 100)} to page from: start again from the first page`);
  }
  // Reading on (after) goes the list's way from the cursor; reading back (before) goes the
  // other way and turns the page round.
  const forward = options.before === undefined;
  const descending = newest === forward;
  const rows = cachedStatement(
    db,
    `SELECT m.* FROM memories m WHERE ${where.sql} AND (m.created_at, m.rowid) ${descending ? '<' : '>'} (?, ?)
     ORDER BY m.created_at ${descending ? 'DESC' : 'ASC'}, m.rowid ${descending ? 'DESC' : 'ASC'} LIMIT ?`,
  ).all(...where.params, ...cursor, options.limit) as MemoryRow[];
  return forward ? rows : rows.reverse();
}
