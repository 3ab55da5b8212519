/**
 * Reading memories, written once for both databases: one by id or by key, several by id in the
 * order asked for, a count and a page of a filter's memories in storing order. Rows are read
 * column by column (`MEMORY_READ`), never `m.*`: each database keeps its own search columns
 * beside them.
 */
import type { MemoryFilter } from '../memory-filter.js';
import { memoryFilterSql } from './filter-clause.js';
import { MEMORY_COLUMNS, type MemoryRow } from './rows.js';
import { all, get, type Program } from './session.js';
import { JOIN_IN_ORDER, raw, type Sql, sql, table } from './sql.js';

/** `SELECT` and the columns of a memory row over alias `m`, rowid first. */
export const MEMORY_READ: Sql = raw(`SELECT m.rowid AS rowid, ${MEMORY_COLUMNS.map((c) => `m.${c} AS ${c}`).join(', ')}`);

export function* readMemory(tenant: string, id: string): Program<MemoryRow | undefined> {
  return yield* get<MemoryRow>(sql`${MEMORY_READ} FROM memories m WHERE m.tenant = ${tenant} AND m.id = ${id}`);
}

/** The memories of `tenant` with these ids, in no particular order. */
export function* readMemories(tenant: string, ids: readonly string[]): Program<MemoryRow[]> {
  if (ids.length === 0) return [];
  // By id first (SQLite's CROSS JOIN keeps that order): the planner would otherwise scan the tenant.
  return yield* all<MemoryRow>(
    sql`${MEMORY_READ} FROM ${table('j', ids)} ${JOIN_IN_ORDER} memories m ON m.id = j.value WHERE m.tenant = ${tenant}`,
  );
}

/** The live memory holding `key` in `scope`, if any. */
export function* readMemoryByKey(tenant: string, scope: string, key: string): Program<MemoryRow | undefined> {
  return yield* get<MemoryRow>(
    sql`${MEMORY_READ} FROM memories m WHERE m.tenant = ${tenant} AND m.scope = ${scope} AND m.key = ${key}
      AND m.superseded_by IS NULL AND m.archived_at IS NULL`,
  );
}

export function* countMemoryRows(filter: MemoryFilter): Program<number> {
  const row = yield* get<{ n: number }>(sql`SELECT count(*) AS n FROM memories m WHERE ${memoryFilterSql(filter, 'm')}`);
  return (row as { n: number }).n;
}

/** A page of `filter`'s memories (every tenant's for null) in storing order, after the rowid `after`. */
export function* memoryPage(filter: MemoryFilter | null, after: number, pageSize: number): Program<MemoryRow[]> {
  const where = filter === null ? sql`` : sql`${memoryFilterSql(filter, 'm')} AND`;
  return yield* all<MemoryRow>(
    sql`${MEMORY_READ} FROM memories m WHERE ${where} m.rowid > ${after} ORDER BY m.rowid LIMIT ${Math.max(0, pageSize)}`,
  );
}

/** Every memory row `readPage` reads, page after page (see `memoryPage`). */
export async function* memoryPages(
  readPage: (after: number) => MemoryRow[] | Promise<MemoryRow[]>,
  pageSize: number,
): AsyncIterable<MemoryRow> {
  let after = 0;
  for (;;) {
    const page = await readPage(after);
    yield* page;
    const last = page[page.length - 1];
    if (!last || page.length < pageSize) return;
    after = last.rowid;
  }
}
