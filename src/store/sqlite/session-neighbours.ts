/**
 * The turns beside a memory in its session: memories of the same tenant and session, ordered
 * by when they occurred and then by storing order (turns of one conversation often share a
 * timestamp). Each side is one range read of the session index, so the cost does not grow
 * with the store.
 */
import type Database from 'better-sqlite3';

import type { MemoryFilter } from '../memory-filter.js';
import type { SessionNeighbour } from '../memory-store.js';
import { filterClause } from './filter-clause.js';
import { cachedStatement } from './statement-cache.js';

interface Seed {
  id: string;
  rowid: number;
  sessionId: string;
  occurredAt: number;
}

/** Up to `radius` memories each side of each seed, nearest first, that `filter` admits. */
export function sessionNeighbours(
  db: Database.Database,
  filter: MemoryFilter,
  memoryIds: readonly string[],
  radius: number,
): SessionNeighbour[] {
  if (memoryIds.length === 0 || radius <= 0) return [];
  const seeds = cachedStatement(
    db,
    `SELECT m.id, m.rowid, m.session_id AS sessionId, m.occurred_at AS occurredAt
       FROM json_each(?) j CROSS JOIN memories m ON m.id = j.value
       WHERE m.tenant = ? AND m.session_id IS NOT NULL ORDER BY j.key`,
  ).all(JSON.stringify([...new Set(memoryIds)]), filter.tenant) as Seed[];
  const where = filterClause(filter, 'm');
  // The filter is checked on each row the range yields; an inadmissible turn is skipped, not counted.
  const side = (after: boolean) =>
    cachedStatement(
      db,
      `SELECT m.id FROM memories m INDEXED BY memories_by_session
       WHERE m.tenant = ? AND m.session_id = ?
         AND (m.occurred_at ${after ? '>' : '<'} ? OR (m.occurred_at = ? AND m.rowid ${after ? '>' : '<'} ?))
         AND ${where.sql}
       ORDER BY m.occurred_at ${after ? 'ASC' : 'DESC'}, m.rowid ${after ? 'ASC' : 'DESC'} LIMIT ?`,
    );
  const before = side(false);
  const after = side(true);
  return seeds.flatMap((seed) => {
    const params = [filter.tenant, seed.sessionId, seed.occurredAt, seed.occurredAt, seed.rowid, ...where.params, radius];
    const earlier = before.pluck().all(...params) as string[];
    const later = after.pluck().all(...params) as string[];
    const nearest: SessionNeighbour[] = [];
    for (let distance = 1; distance <= radius; distance++) {
      for (const id of [earlier[distance - 1], later[distance - 1]]) {
        if (id !== undefined) nearest.push({ memoryId: id, of: seed.id, distance });
      }
    }
    return nearest;
  });
}
