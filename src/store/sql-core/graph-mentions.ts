/**
 * Mentions, written once for both databases: which memories name which entities, read both
 * ways, replaced when a memory is extracted again, removed when memories are forgotten.
 * Graph-aware recall reads "the newest memories naming this entity" straight off the mentions
 * key (entity, memory), so it costs one index range per entity.
 */
import type { Mention, MentionRole } from '../../model/graph.js';
import type { MentionQuery } from '../graph-store.js';
import type { MemoryFilter } from '../memory-filter.js';
import { memoryFilterSql } from './filter-clause.js';
import { clearExtractionFailures } from './graph-failures.js';
import { ROLE_RANK_SQL, roleRank, toMention } from './graph-rows.js';
import { entitiesHeldBy, memoryRowids, removeUnheldEntities } from './graph-unheld.js';
import { all, type Program, run } from './session.js';
import { JOIN_IN_ORDER, limit, oneOf, raw, rows, sql, table } from './sql.js';

/** Replaces the mentions of one memory; an entity named twice keeps its strongest role. */
export function* replaceMentions(
  memoryRowid: number,
  mentions: readonly { entityRowid: number; role: MentionRole }[],
): Program<void> {
  yield* run(sql`DELETE FROM mentions WHERE memory_rowid = ${memoryRowid}`);
  const strongest = new Map<number, MentionRole>();
  for (const { entityRowid, role } of mentions) {
    const held = strongest.get(entityRowid);
    if (held === undefined || roleRank(role) < roleRank(held)) strongest.set(entityRowid, role);
  }
  if (strongest.size === 0) return;
  const columns = [
    { name: 'e', type: 'integer' },
    { name: 'r', type: 'text' },
  ] as const;
  yield* run(
    sql`INSERT INTO mentions (entity_rowid, memory_rowid, role)
      SELECT u.e, ${memoryRowid}, u.r FROM ${rows('u', columns, [...strongest])} ORDER BY u.n`,
  );
}

/**
 * Removes the mentions made by these memories of `tenant`, and their recorded extraction
 * failures (a forgotten memory is not extracted); an extracted entity they alone held goes.
 */
export function* removeMentionRows(tenant: string, memoryIds: readonly string[]): Program<number> {
  const rowids = yield* memoryRowids(tenant, memoryIds);
  if (rowids.length === 0) return 0;
  const held = yield* entitiesHeldBy(rowids);
  const removed = yield* run(sql`DELETE FROM mentions WHERE ${oneOf(raw('memory_rowid'), rowids, 'integer')}`);
  yield* clearExtractionFailures(rowids);
  yield* removeUnheldEntities(held);
  return removed;
}

/** For each entity in order, the newest mentions by memories `filter` admits (see `MentionQuery`). */
export function* mentionsOfEntities(
  filter: MemoryFilter,
  entityIds: readonly string[],
  { limitPerEntity, scanPerEntity }: MentionQuery,
): Program<Mention[]> {
  if (entityIds.length === 0 || limitPerEntity <= 0) return [];
  const entities = yield* all<{ rowid: number; id: string }>(
    sql`SELECT e.rowid AS rowid, e.id AS id FROM ${table('j', [...new Set(entityIds)])} ${JOIN_IN_ORDER} entities e
      ON e.id = j.value WHERE e.tenant = ${filter.tenant} ORDER BY j.key`,
  );
  const where = memoryFilterSql(filter, 'm');
  const mentions: Mention[] = [];
  for (const { rowid, id } of entities) {
    // Mentions stay outermost, so the key's order (entity, memory) is the result's order and the
    // limits stop the scan early: no sort, however many memories name the entity. Without a scan
    // bound, a narrow filter over an entity named in 50k memories reads them all (~20 ms).
    const found = yield* all<{ memoryId: string; role: string }>(
      sql`SELECT m.id AS "memoryId", x.role AS role
        FROM (SELECT memory_rowid, role FROM mentions WHERE entity_rowid = ${rowid} ORDER BY memory_rowid DESC
          ${limit(scanPerEntity)}) x
        ${JOIN_IN_ORDER} memories m ON m.rowid = x.memory_rowid
        WHERE ${where} ORDER BY x.memory_rowid DESC LIMIT ${limitPerEntity}`,
    );
    for (const row of found) mentions.push(toMention(filter.tenant, { ...row, entityId: id }));
  }
  return mentions;
}

/** The mentions made by these memories of `tenant`, memory by memory, strongest role first. */
export function* mentionsInMemories(tenant: string, memoryIds: readonly string[]): Program<Mention[]> {
  if (memoryIds.length === 0) return [];
  const found = yield* all<{ memoryId: string; entityId: string; role: string }>(
    sql`SELECT m.id AS "memoryId", e.id AS "entityId", x.role AS role
      FROM ${table('j', [...new Set(memoryIds)])} ${JOIN_IN_ORDER} memories m ON m.id = j.value
      ${JOIN_IN_ORDER} mentions x ON x.memory_rowid = m.rowid ${JOIN_IN_ORDER} entities e ON e.rowid = x.entity_rowid
      WHERE m.tenant = ${tenant} ORDER BY j.key, ${raw(ROLE_RANK_SQL('x.role'))}, e.rowid`,
  );
  return found.map((row) => toMention(tenant, row));
}
