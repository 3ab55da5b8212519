/**
 * A session's turns as one read, written once for both databases: the ids of the memories of one
 * session that a filter admits, in session order — when they occurred, then storing order (rowid),
 * as each driver's session neighbours order them (../sqlite/session-neighbours.ts,
 * ../postgres/session-neighbours.ts). It is one range of the `memories_by_session` index
 * (tenant, session, occurred_at, then the rowid, which ends every SQLite index and PostgreSQL's
 * names), read in its order with the filter's other columns checked row by row. SQLite is told
 * to use it: by its statistics a filter's scopes can look narrower than a session, and its
 * planner then read the scopes and sorted. PostgreSQL's planner finds it by itself.
 */
import type { MemoryFilter } from '../memory-filter.js';
import { memoryFilterSql } from './filter-clause.js';
import { all, type Program } from './session.js';
import { indexedBy, limit, sql } from './sql.js';

/**
 * The ids of the memories of `sessionId` that `filter` admits, in session order, at most
 * `count` (none for 0 or less; all of them for `Infinity`).
 */
export function* sessionTurnIds(filter: MemoryFilter, sessionId: string, count: number): Program<string[]> {
  if (!(count > 0)) return [];
  const rows = yield* all<{ id: string }>(
    sql`SELECT m.id AS id FROM memories m ${indexedBy('memories_by_session')}
      WHERE m.session_id = ${sessionId} AND ${memoryFilterSql(filter, 'm')}
      ORDER BY m.occurred_at, m.rowid ${limit(Number.isFinite(count) ? Math.floor(count) : undefined)}`,
  );
  return rows.map((row) => row.id);
}
