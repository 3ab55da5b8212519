/**
 * Listing memories in creation order (ties in storing order) or spread over the store (by the
 * random part of their ids), a page found by offset or by a cursor memory. A cursor page is an
 * index range read from the cursor on, so page 1,000 costs what page 1 does; an offset page
 * reads and drops every row before it. Each order reads an index in its own order (the spread
 * one, migration 9's expression index), so the first page costs the same at any size.
 */
import type Database from 'better-sqlite3';

import { InvalidInputError } from '../../errors.js';
import type { MemoryFilter } from '../memory-filter.js';
import type { ListOptions } from '../memory-store.js';
import { filterClause } from './filter-clause.js';
import type { MemoryRow } from '../sql-core/rows.js';
import { cachedStatement } from './statement-cache.js';

/** Each order's sort key over `memories m`, and whether it runs down the key. */
const ORDERS = {
  newest: { key: ['m.created_at', 'm.rowid'], descending: true },
  oldest: { key: ['m.created_at', 'm.rowid'], descending: false },
  // A ULID's 16 random characters after its 10 of time, then the whole id: spelled as
  // migration 9's index is, so the read follows it.
  spread: { key: ['substr(m.id, 11)', 'm.id'], descending: false },
} as const;

/** The rows of one page of `filter`'s memories, in `options.order`. */
export function listMemoryRows(db: Database.Database, filter: MemoryFilter, options: ListOptions): MemoryRow[] {
  const where = filterClause(filter, 'm');
  const { key, descending: down } = ORDERS[options.order ?? 'newest'];
  const cursorId = options.after ?? options.before;
  if (cursorId === undefined) {
    return cachedStatement(
      db,
      `SELECT m.* FROM memories m WHERE ${where.sql} ORDER BY ${sortBy(key, down)} LIMIT ? OFFSET ?`,
    ).all(...where.params, options.limit, options.offset ?? 0) as MemoryRow[];
  }
  if ((options.after !== undefined && options.before !== undefined) || (options.offset ?? 0) > 0) {
    throw new InvalidInputError('a page is found by one of offset, after or before: send only one');
  }
  const cursor = cachedStatement(db, `SELECT ${key.join(', ')} FROM memories m WHERE m.tenant = ? AND m.id = ?`)
    .raw()
    .get(filter.tenant, cursorId) as unknown[] | undefined;
  if (!cursor) {
    throw new InvalidInputError(`no memory with id ${cursorId.slice(0, 100)} to page from: start again from the first page`);
  }
  // Reading on (after) goes the list's way from the cursor; reading back (before) goes the
  // other way and turns the page round.
  const forward = options.before === undefined;
  const descending = down === forward;
  const past = descending ? '<' : '>';
  // The first key's bound again on its own: the planner bounds an index range by a row value
  // of columns, not of expressions (the spread order's).
  const rows = cachedStatement(
    db,
    `SELECT m.* FROM memories m WHERE ${where.sql} AND ${key[0]} ${past}= ? AND (${key.join(', ')}) ${past} (?, ?)
     ORDER BY ${sortBy(key, descending)} LIMIT ?`,
  ).all(...where.params, cursor[0], ...cursor, options.limit) as MemoryRow[];
  return forward ? rows : rows.reverse();
}

function sortBy(key: readonly string[], descending: boolean): string {
  return key.map((column) => `${column} ${descending ? 'DESC' : 'ASC'}`).join(', ');
}
