/**
 * The turns beside a memory in its session, in PostgreSQL: memories of the same tenant and
 * session ordered by when they occurred, then by storing order, as ../sqlite/session-neighbours.ts
 * defines them. One statement answers for every memory asked about (one round trip): each side
 * of each seed is a range read of the session index, from the seed's place.
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
  const params = new Params();
  const seeds = params.add([...new Set(memoryIds)]);
  const tenant = params.add(filter.tenant);
  const where = filterClause(filter, 'm', params);
  const limit = params.add(radius);
  const side = (after: boolean) => {
    const [cmp, dir] = after ? ['>', 'ASC'] : ['<', 'DESC'];
    return `SELECT array_agg(n.id ORDER BY n.place) FROM (
        SELECT m.id, row_number() OVER (ORDER BY m.occurred_at ${dir}, m.rowid ${dir}) AS place FROM (
          SELECT m.id, m.occurred_at, m.rowid FROM memories m
          WHERE m.tenant = s.tenant AND m.session_id = s.session_id
            AND (m.occurred_at, m.rowid) ${cmp} (s.occurred_at, s.rowid) AND ${where}
          ORDER BY m.occurred_at ${dir}, m.rowid ${dir} LIMIT ${limit}) m) n`;
  };
  const result = await db.query(
    `SELECT s.id AS seed, (${side(false)}) AS earlier, (${side(true)}) AS later
     FROM unnest(${seeds}::text[]) WITH ORDINALITY AS k(id, n) JOIN memories s ON s.id = k.id
     WHERE s.tenant = ${tenant} AND s.session_id IS NOT NULL ORDER BY k.n`,
    params.values,
  );
  return (result.rows as { seed: string; earlier: string[] | null; later: string[] | null }[]).flatMap((row) => {
    const nearest: SessionNeighbour[] = [];
    for (let distance = 1; distance <= radius; distance++) {
      for (const id of [row.earlier?.[distance - 1], row.later?.[distance - 1]]) {
        if (id !== undefined) nearest.push({ memoryId: id, of: row.seed, distance });
      }
    }
    return nearest;
  });
}
