/**
 * The turns beside a memory in its session, in PostgreSQL: memories of the same tenant and
 * session ordered by when they occurred, then by storing order, as ../sqlite/session-neighbours.ts
 * defines them. Each side is one range read of the session index.
 */
import type { MemoryFilter } from '../memory-filter.js';
import type { SessionNeighbour } from '../memory-store.js';
import type { Queryable } from './connection.js';
import { filterClause, Params } from './filter-clause.js';

/** Up to `radius` memories each side of each seed, nearest first, that `filter` admits. */
export async function sessionNeighbours(
  db: Queryable,
  filter: MemoryFilter,
  memoryIds: readonly string[],
  radius: number,
): Promise<SessionNeighbour[]> {
  if (memoryIds.length === 0 || radius <= 0) return [];
  const seeds = await db.query(
    `SELECT m.id, m.rowid, m.session_id AS "sessionId", m.occurred_at AS "occurredAt"
     FROM unnest($1::text[]) WITH ORDINALITY AS k(id, n) JOIN memories m ON m.id = k.id
     WHERE m.tenant = $2 AND m.session_id IS NOT NULL ORDER BY k.n`,
    [[...new Set(memoryIds)], filter.tenant],
  );
  const nearest: SessionNeighbour[] = [];
  for (const seed of seeds.rows as { id: string; rowid: number; sessionId: string; occurredAt: number }[]) {
    const side = async (after: boolean): Promise<string[]> => {
      const params = new Params([filter.tenant, seed.sessionId, seed.occurredAt, seed.rowid]);
      const where = filterClause(filter, 'm', params);
      const [cmp, dir] = after ? ['>', 'ASC'] : ['<', 'DESC'];
      const result = await db.query(
        `SELECT m.id FROM memories m
         WHERE m.tenant = $1 AND m.session_id = $2 AND (m.occurred_at, m.rowid) ${cmp} ($3, $4) AND ${where}
         ORDER BY m.occurred_at ${dir}, m.rowid ${dir} LIMIT ${params.add(radius)}`,
        params.values,
      );
      return (result.rows as { id: string }[]).map((row) => row.id);
    };
    const earlier = await side(false);
    const later = await side(true);
    for (let distance = 1; distance <= radius; distance++) {
      for (const id of [earlier[distance - 1], later[distance - 1]]) {
        if (id !== undefined) nearest.push({ memoryId: id, of: seed.id, distance });
      }
    }
  }
  return nearest;
}
