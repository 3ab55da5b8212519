/**
 * Listing memories in creation order (ties in storing order) or spread over the store (by the
 * random part of their ids), a page found by offset or by a cursor memory, as
 * ../sqlite/memory-list.ts does: a cursor page is an index range read from the cursor on, so a
 * page deep into a long list costs what the first one does. Ids are ordered byte by byte
 * (`COLLATE "C"`), as SQLite orders text, so both backends spread a store alike.
 */
import { InvalidInputError } from '../../errors.js';
import type { MemoryFilter } from '../memory-filter.js';
import type { ListOptions } from '../memory-store.js';
import type { MemoryRow } from '../sql-core/rows.js';
import type { Queryable } from './connection.js';
import { filterClause, Params } from './filter-clause.js';

/** Reads memory rows: `tail` follows `SELECT … FROM memories m`. */
export type ReadMemoryRows = (tail: string, params: readonly unknown[]) => Promise<MemoryRow[]>;

/** Each order's sort key over `memories m`, and whether it runs down the key. */
const ORDERS = {
  newest: { key: ['m.created_at', 'm.rowid'], descending: true },
  oldest: { key: ['m.created_at', 'm.rowid'], descending: false },
  // A ULID's 16 random characters after its 10 of time, then the whole id: spelled as
  // migration 5's index is, so the read follows it.
  spread: { key: ['substr(m.id, 11) COLLATE "C"', 'm.id COLLATE "C"'], descending: false },
} as const;

/** The rows of one page of `filter`'s memories, in `options.order`. */
export async function listMemoryRows(
  db: Queryable,
  filter: MemoryFilter,
  options: ListOptions,
  read: ReadMemoryRows,
): Promise<MemoryRow[]> {
  const params = new Params();
  const where = filterClause(filter, 'm', params);
  const { key, descending: down } = ORDERS[options.order ?? 'newest'];
  const limit = Math.max(0, options.limit);
  const cursorId = options.after ?? options.before;
  if (cursorId === undefined) {
    return read(
      `WHERE ${where} ORDER BY ${sortBy(key, down)}
       LIMIT ${params.add(limit)} OFFSET ${params.add(Math.max(0, options.offset ?? 0))}`,
      params.values,
    );
  }
  if ((options.after !== undefined && options.before !== undefined) || (options.offset ?? 0) > 0) {
    throw new InvalidInputError('a page is found by one of offset, after or before: send only one');
  }
  const found = await db.query(
    `SELECT ${key.map((part, i) => `${part} AS k${i}`).join(', ')} FROM memories m WHERE m.tenant = $1 AND m.id = $2`,
    [filter.tenant, cursorId],
  );
  const row = found.rows[0] as Record<string, unknown> | undefined;
  const cursor = row && key.map((_, i) => row[`k${i}`]);
  if (!cursor) {
    throw new InvalidInputError(`no memory with id ${cursorId.slice(0, 100)} to page from: start again from the first page`);
  }
  // Reading on (after) goes the list's way from the cursor; reading back (before) goes the
  // other way and turns the page round.
  const forward = options.before === undefined;
  const descending = down === forward;
  const rows = await read(
    `WHERE ${where} AND (${key.join(', ')}) ${descending ? '<' : '>'} (${cursor.map((value) => params.add(value)).join(', ')})
     ORDER BY ${sortBy(key, descending)} LIMIT ${params.add(limit)}`,
    params.values,
  );
  return forward ? rows : rows.reverse();
}

function sortBy(key: readonly string[], descending: boolean): string {
  return key.map((column) => `${column} ${descending ? 'DESC' : 'ASC'}`).join(', ');
}
