/**
 * Removing what extraction made once nothing holds it, in PostgreSQL, by the rules of
 * ../sqlite/graph-unheld.ts: an entity with origin `extracted` that no memory mentions, with no
 * observation and no live relation, among those a write touched; foreign keys take its aliases
 * and ended relations with it. The caller wraps it in the write's transaction.
 */
import type { Queryable } from './connection.js';

/** Deletes the entities among `rowids` that extraction made and nothing holds any more; returns how many. */
export async function removeUnheldEntities(db: Queryable, rowids: Iterable<number>): Promise<number> {
  const candidates = [...new Set(rowids)];
  if (candidates.length === 0) return 0;
  const result = await db.query(
    `DELETE FROM entities e WHERE e.rowid = ANY($1::integer[])
       AND e.origin = 'extracted' AND e.observations = '[]'
       AND NOT EXISTS (SELECT 1 FROM mentions x WHERE x.entity_rowid = e.rowid)
       AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.from_rowid = e.rowid AND r.invalidated_at IS NULL)
       AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.to_rowid = e.rowid AND r.invalidated_at IS NULL)`,
    [candidates],
  );
  return result.rowCount ?? 0;
}

/** The entities these memories (by rowid) mention or state a relation about: what forgetting them may let go. */
export async function entitiesHeldBy(db: Queryable, memoryRowids: readonly number[]): Promise<number[]> {
  if (memoryRowids.length === 0) return [];
  const result = await db.query(
    `SELECT entity_rowid AS rowid FROM mentions WHERE memory_rowid = ANY($1::integer[])
     UNION SELECT from_rowid FROM relations WHERE memory_rowid = ANY($1::integer[])
     UNION SELECT to_rowid FROM relations WHERE memory_rowid = ANY($1::integer[])`,
    [[...memoryRowids]],
  );
  return (result.rows as { rowid: number }[]).map((row) => row.rowid);
}

/** The rowids of the memories of `tenant` with these ids. */
export async function memoryRowids(db: Queryable, tenant: string, ids: readonly string[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const result = await db.query(`SELECT rowid FROM memories WHERE tenant = $1 AND id = ANY($2::text[])`, [tenant, [...ids]]);
  return (result.rows as { rowid: number }[]).map((row) => row.rowid);
}

/** The rowids of the entities of `tenant` with these ids. */
export async function entityRowids(db: Queryable, tenant: string, ids: readonly string[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const result = await db.query(`SELECT rowid FROM entities WHERE tenant = $1 AND id = ANY($2::text[])`, [tenant, [...ids]]);
  return (result.rows as { rowid: number }[]).map((row) => row.rowid);
}
