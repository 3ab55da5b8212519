/**
 * The SQLite side of mentions: which memories name which entities, read both ways, removed when
 * memories are forgotten. Graph-aware recall reads "the newest memories naming this entity"
 * straight off the mentions key (entity, memory), so it costs one index range per entity.
 */
import type Database from 'better-sqlite3';

import type { Mention, MentionRole } from '../../model/graph.js';
import type { MentionQuery } from '../graph-store.js';
import type { MemoryFilter } from '../memory-filter.js';
import { filterClause } from './filter-clause.js';
import { clearExtractionFailures } from './graph-failures.js';
import { ROLE_RANK_SQL, roleRank, toMention } from './graph-rows.js';
import { entitiesHeldBy, removeUnheldEntities } from './graph-unheld.js';
import { cachedStatement } from './statement-cache.js';

/** Replaces the mentions of one memory; an entity named twice keeps its strongest role. */
export function replaceMentions(
  db: Database.Database,
  memoryRowid: number,
  mentions: readonly { entityRowid: number; role: MentionRole }[],
): void {
  db.prepare(`DELETE FROM mentions WHERE memory_rowid = ?`).run(memoryRowid);
  const strongest = new Map<number, MentionRole>();
  for (const { entityRowid, role } of mentions) {
    const held = strongest.get(entityRowid);
    if (held === undefined || roleRank(role) < roleRank(held)) strongest.set(entityRowid, role);
  }
  const insert = db.prepare(`INSERT INTO mentions (entity_rowid, memory_rowid, role) VALUES (?, ?, ?)`);
  for (const [entityRowid, role] of strongest) insert.run(entityRowid, memoryRowid, role);
}

/**
 * Removes the mentions made by these memories of `tenant`, and their recorded extraction
 * failures (a forgotten memory is not extracted); an extracted entity they alone held goes.
 */
export function removeMentionRows(db: Database.Database, tenant: string, memoryIds: readonly string[]): number {
  const memoryRowids = db
    .prepare(`SELECT m.rowid FROM json_each(?) j CROSS JOIN memories m ON m.id = j.value WHERE m.tenant = ?`)
    .pluck()
    .all(JSON.stringify(memoryIds), tenant) as number[];
  if (memoryRowids.length === 0) return 0;
  const held = entitiesHeldBy(db, memoryRowids);
  const rowids = JSON.stringify(memoryRowids);
  const removed = db.prepare(`DELETE FROM mentions WHERE memory_rowid IN (SELECT value FROM json_each(?))`).run(rowids).changes;
  clearExtractionFailures(db, memoryRowids);
  removeUnheldEntities(db, held);
  return removed;
}

/** For each entity in order, the newest mentions by memories `filter` admits (see `MentionQuery`). */
export function mentionsOfEntities(
  db: Database.Database,
  filter: MemoryFilter,
  entityIds: readonly string[],
  { limitPerEntity, scanPerEntity = -1 }: MentionQuery,
): Mention[] {
  if (entityIds.length === 0 || limitPerEntity <= 0) return [];
  const entities = cachedStatement(
    db,
    `SELECT e.rowid, e.id FROM json_each(?) j CROSS JOIN entities e ON e.id = j.value WHERE e.tenant = ? ORDER BY j.key`,
  ).all(JSON.stringify([...new Set(entityIds)]), filter.tenant) as { rowid: number; id: string }[];
  const where = filterClause(filter, 'm');
  // Mentions stay outermost, so the key's order (entity, memory) is the result's order and the
  // limits stop the scan early: no sort, however many memories name the entity. Without a scan
  // bound, a narrow filter over an entity named in 50k memories reads them all (~20 ms).
  const newest = cachedStatement(
    db,
    `SELECT m.id AS memoryId, x.role AS role
     FROM (SELECT memory_rowid, role FROM mentions WHERE entity_rowid = ? ORDER BY memory_rowid DESC LIMIT ?) x
     CROSS JOIN memories m ON m.rowid = x.memory_rowid
     WHERE ${where.sql} ORDER BY x.memory_rowid DESC LIMIT ?`,
  );
  return entities.flatMap(({ rowid, id }) =>
    (newest.all(rowid, scanPerEntity, ...where.params, limitPerEntity) as { memoryId: string; role: string }[]).map((row) =>
      toMention(filter.tenant, { ...row, entityId: id }),
    ),
  );
}

/** The mentions made by these memories of `tenant`, memory by memory, strongest role first. */
export function mentionsInMemories(db: Database.Database, tenant: string, memoryIds: readonly string[]): Mention[] {
  if (memoryIds.length === 0) return [];
  const rows = cachedStatement(
    db,
    `SELECT m.id AS memoryId, e.id AS entityId, x.role AS role
       FROM json_each(?) j CROSS JOIN memories m ON m.id = j.value
       CROSS JOIN mentions x ON x.memory_rowid = m.rowid CROSS JOIN entities e ON e.rowid = x.entity_rowid
       WHERE m.tenant = ? ORDER BY j.key, ${ROLE_RANK_SQL('x.role')}, e.rowid`,
  ).all(JSON.stringify([...new Set(memoryIds)]), tenant) as { memoryId: string; entityId: string; role: string }[];
  return rows.map((row) => toMention(tenant, row));
}
