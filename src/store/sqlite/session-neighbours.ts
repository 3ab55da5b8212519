/**
 * The turns beside a memory in its session: memories of the same tenant and session, ordered
 * by when they occurred and then by storing order (turns of one conversation often share a
 * timestamp). One statement answers for every memory asked about: for each, and each distance
 * up to the radius, a seek into the session index from the memory's place (the row value
 * (occurred_at, rowid) lets the index go straight there), so the cost does not grow with the
 * store or the session.
 */
import type Database from 'better-sqlite3';

import type { MemoryFilter } from '../memory-filter.js';
import type { SessionNeighbour } from '../memory-store.js';
import { filterClause } from './filter-clause.js';
import { cachedStatement } from './statement-cache.js';

/** Up to `radius` memories each side of each seed, nearest first, that `filter` admits. */
export function sessionNeighbours(
  db: Database.Database,
  filter: MemoryFilter,
  memoryIds: readonly string[],
  radius: number,
): SessionNeighbour[] {
  if (memoryIds.length === 0 || radius <= 0) return [];
  const where = filterClause(filter, 'm');
  // The filter is checked on each row the seek yields; an inadmissible turn is skipped, not counted.
  const side = (after: boolean, offset: number) =>
    `(SELECT m.id FROM memories m INDEXED BY memories_by_session
       WHERE m.tenant = s.tenant AND m.session_id = s.session_id
         AND (m.occurred_at, m.rowid) ${after ? '>' : '<'} (s.occurred_at, s.rowid) AND ${where.sql}
       ORDER BY m.occurred_at ${after ? 'ASC' : 'DESC'}, m.rowid ${after ? 'ASC' : 'DESC'} LIMIT 1 OFFSET ${offset})`;
  const columns: string[] = [];
  for (let distance = 1; distance <= radius; distance++) {
    columns.push(`${side(false, distance - 1)} AS before${distance}`, `${side(true, distance - 1)} AS after${distance}`);
  }
  const rows = cachedStatement(
    db,
    `SELECT s.id AS seed, ${columns.join(', ')}
       FROM json_each(?) j CROSS JOIN memories s ON s.id = j.value
       WHERE s.tenant = ? AND s.session_id IS NOT NULL ORDER BY j.key`,
  ).all(
    ...Array.from({ length: 2 * radius }, () => where.params).flat(),
    JSON.stringify([...new Set(memoryIds)]),
    filter.tenant,
  ) as Record<string, string | null>[];
  return rows.flatMap((row) => {
    const nearest: SessionNeighbour[] = [];
    for (let distance = 1; distance <= radius; distance++) {
      for (const id of [row[`before${distance}`], row[`after${distance}`]]) {
        if (id !== null && id !== undefined) nearest.push({ memoryId: id, of: row.seed as string, distance });
      }
    }
    return nearest;
  });
}
