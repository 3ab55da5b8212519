/**
 * Listing memories in creation order (ties in storing order) or spread over the store (by the
 * random part of their ids), a page found by offset or by a cursor memory, written once for both
 * databases. A cursor page is an index range read from the cursor on, so page 1,000 costs what
 * page 1 does; an offset page reads and drops every row before it. Each order reads an index in
 * its own order (the spread one, an expression index: SQLite migration 9, PostgreSQL migration
 * 5), so the first page costs the same at any size. Ids are ordered byte by byte on both, so both
 * spread a store alike. A negative limit or offset counts as 0.
 */
import { InvalidInputError } from '../../errors.js';
import type { MemoryFilter } from '../memory-filter.js';
import type { ListOptions } from '../memory-store.js';
import { memoryFilterSql } from './filter-clause.js';
import { MEMORY_READ } from './memory-reads.js';
import type { MemoryRow } from './rows.js';
import { all, get, type Program } from './session.js';
import { bytewise, join, raw, type Sql, sql } from './sql.js';

/** Each order's sort key over `memories m`, and whether it runs down the key. */
const ORDERS = {
  newest: { key: [raw('m.created_at'), raw('m.rowid')], descending: true },
  oldest: { key: [raw('m.created_at'), raw('m.rowid')], descending: false },
  // A ULID's 16 random characters after its 10 of time, then the whole id: spelled as the
  // index is, so the read follows it.
  spread: { key: [bytewise(raw('substr(m.id, 11)')), bytewise(raw('m.id'))], descending: false },
} as const;

/** The rows of one page of `filter`'s memories, in `options.order`. */
export function* listMemoryRows(filter: MemoryFilter, options: ListOptions): Program<MemoryRow[]> {
  const where = memoryFilterSql(filter, 'm');
  const { key, descending: down } = ORDERS[options.order ?? 'newest'];
  const limit = Math.max(0, options.limit);
  const cursorId = options.after ?? options.before;
  if (cursorId === undefined) {
    return yield* all<MemoryRow>(
      sql`${MEMORY_READ} FROM memories m WHERE ${where} ORDER BY ${sortBy(key, down)}
        LIMIT ${limit} OFFSET ${Math.max(0, options.offset ?? 0)}`,
    );
  }
  if ((options.after !== undefined && options.before !== undefined) || (options.offset ?? 0) > 0) {
    throw new InvalidInputError('a page is found by one of offset, after or before: send only one');
  }
  const cursor = yield* get<{ k0: unknown; k1: unknown }>(
    sql`SELECT ${key[0]} AS k0, ${key[1]} AS k1 FROM memories m WHERE m.tenant = ${filter.tenant} AND m.id = ${cursorId}`,
  );
  if (!cursor) {
    throw new InvalidInputError(`no memory with id ${cursorId.slice(0, 100)} to page from: start again from the first page`);
  }
  // Reading on (after) goes the list's way from the cursor; reading back (before) goes the
  // other way and turns the page round.
  const forward = options.before === undefined;
  const descending = down === forward;
  const past = raw(descending ? '<' : '>');
  // The first key's bound again on its own: SQLite's planner bounds an index range by a row
  // value of columns, not of expressions (the spread order's).
  const found = yield* all<MemoryRow>(
    sql`${MEMORY_READ} FROM memories m WHERE ${where} AND ${key[0]} ${past}= ${cursor.k0}
        AND (${join([...key])}) ${past} (${cursor.k0}, ${cursor.k1})
      ORDER BY ${sortBy(key, descending)} LIMIT ${limit}`,
  );
  return forward ? found : found.reverse();
}

function sortBy(key: readonly Sql[], descending: boolean): Sql {
  return join(key.map((column) => sql`${column} ${raw(descending ? 'DESC' : 'ASC')}`));
}
