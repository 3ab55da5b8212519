/**
 * A tenant's memories counted for `stats`, written once for both databases: by state in one
 * pass, and the live ones by kind, tier and scope, the largest group first and equal groups by
 * name, byte by byte (test/store-contract/statistics.ts pins the order on both).
 */
import type { Kind } from '../../model/memory.js';
import type { MemoryCounts } from '../store-statistics.js';
import { all, get, type Program } from './session.js';
import { bytewise, isIn, raw, sql } from './sql.js';

/** The tenant's memories counted by state, and the live ones by kind, tier and scope; only `kinds` when given. */
export function* memoryCounts(tenant: string, kinds?: readonly Kind[]): Program<MemoryCounts> {
  const only = kinds === undefined ? sql`` : kinds.length === 0 ? sql`AND false` : sql`AND ${isIn(raw('kind'), kinds)}`;
  const states = (yield* get<Pick<MemoryCounts, 'memories' | 'live' | 'archived' | 'superseded'>>(
    sql`SELECT count(*) AS memories,
        count(*) FILTER (WHERE archived_at IS NULL AND superseded_by IS NULL) AS live,
        count(*) FILTER (WHERE archived_at IS NOT NULL) AS archived,
        count(*) FILTER (WHERE superseded_by IS NOT NULL) AS superseded
      FROM memories WHERE tenant = ${tenant} ${only}`,
  )) as Pick<MemoryCounts, 'memories' | 'live' | 'archived' | 'superseded'>;
  function* groups(column: 'kind' | 'tier' | 'scope'): Program<Record<string, number>> {
    const found = yield* all<{ name: string; n: number }>(
      sql`SELECT ${raw(column)} AS name, count(*) AS n FROM memories
        WHERE tenant = ${tenant} ${only} AND archived_at IS NULL AND superseded_by IS NULL
        GROUP BY ${raw(column)} ORDER BY n DESC, ${bytewise(raw(column))}`,
    );
    return Object.fromEntries(found.map(({ name, n }) => [name, n]));
  }
  return {
    memories: states.memories,
    live: states.live,
    archived: states.archived,
    superseded: states.superseded,
    byKind: yield* groups('kind'),
    byTier: yield* groups('tier'),
    byScope: yield* groups('scope'),
  };
}
