/**
 * Removing what extraction made once nothing holds it: an entity with origin `extracted` that
 * no memory mentions, with no observation and no live relation (graph-store.ts, "Lifetimes").
 * Each write that can let go of an entity — re-extraction, removing mentions, purging memories,
 * deleting, ending or unobserving — names the entities it touched, and this removes those left
 * unheld, in the same transaction; the entity trigger of migration 6 takes their aliases and
 * ended relations with them. A user's entity is never removed here.
 */
import type Database from 'better-sqlite3';

/** Deletes the entities among `rowids` that extraction made and nothing holds any more; returns how many. */
export function removeUnheldEntities(db: Database.Database, rowids: Iterable<number>): number {
  const candidates = [...new Set(rowids)];
  if (candidates.length === 0) return 0;
  return db
    .prepare(
      `DELETE FROM entities WHERE rowid IN (SELECT value FROM json_each(?))
         AND origin = 'extracted' AND observations = '[]'
         AND NOT EXISTS (SELECT 1 FROM mentions x WHERE x.entity_rowid = entities.rowid)
         AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.from_rowid = entities.rowid AND r.invalidated_at IS NULL)
         AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.to_rowid = entities.rowid AND r.invalidated_at IS NULL)`,
    )
    .run(JSON.stringify(candidates)).changes;
}

/** The entities these memories (by rowid) mention or state a relation about: what forgetting them may let go. */
export function entitiesHeldBy(db: Database.Database, memoryRowids: readonly number[]): number[] {
  if (memoryRowids.length === 0) return [];
  return db
    .prepare(
      `SELECT x.entity_rowid FROM json_each(?) j CROSS JOIN mentions x ON x.memory_rowid = j.value
       UNION SELECT r.from_rowid FROM json_each(?) j CROSS JOIN relations r ON r.memory_rowid = j.value
       UNION SELECT r.to_rowid FROM json_each(?) j CROSS JOIN relations r ON r.memory_rowid = j.value`,
    )
    .pluck()
    .all(...Array.from({ length: 3 }, () => JSON.stringify(memoryRowids))) as number[];
}

/** The rowids of the entities of `tenant` with these ids. */
export function entityRowids(db: Database.Database, tenant: string, ids: readonly string[]): number[] {
  if (ids.length === 0) return [];
  return db
    .prepare(`SELECT e.rowid FROM json_each(?) j CROSS JOIN entities e ON e.id = j.value WHERE e.tenant = ?`)
    .pluck()
    .all(JSON.stringify(ids), tenant) as number[];
}
