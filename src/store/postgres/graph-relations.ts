/**
 * The PostgreSQL side of relations and mentions: adding relations without duplicating a live
 * one, listing and ending them, recording one memory's mentions and reading them both ways.
 * Ends, sources and mentioned memories are rowids; reads join them back to ids, as in the SQLite
 * store (../sqlite/graph-relations.ts, graph-mentions.ts). The caller wraps writes in a transaction.
 */
import { NotFoundError } from '../../errors.js';
import type { Mention, MentionRole, Relation } from '../../model/graph.js';
import type { MentionQuery, RelationInput, RelationListOptions } from '../graph-store.js';
import type { MemoryFilter } from '../memory-filter.js';
import {
  msOrNull,
  RELATION_SELECT,
  type RelationRow,
  ROLE_RANK_SQL,
  roleRank,
  rowToRelation,
  toMention,
} from '../sqlite/graph-rows.js';
import type { Queryable } from './connection.js';
import { filterClause, Params } from './filter-clause.js';
import { clearExtractionFailures } from './graph-failures.js';
import { entitiesHeldBy, memoryRowids, removeUnheldEntities } from './graph-unheld.js';

/** A relation to write, with its ends and source resolved to rowids. */
export interface ResolvedRelation {
  id: string;
  fromRowid: number;
  toRowid: number;
  type: string;
  memoryRowid: number | null;
  validFrom: number | null;
}

/** The rowid of the memory of `tenant` with this id, or null. */
export async function memoryRowidOf(db: Queryable, tenant: string, id: string): Promise<number | null> {
  const result = await db.query(`SELECT rowid FROM memories WHERE tenant = $1 AND id = $2`, [tenant, id]);
  return (result.rows[0] as { rowid: number } | undefined)?.rowid ?? null;
}

/** Resolves a relation's entity ids and memory id in `tenant`; unknown ones are `not_found`. */
export async function resolveRelation(db: Queryable, tenant: string, input: RelationInput): Promise<ResolvedRelation> {
  const rowidOf = async (id: string): Promise<number> => {
    const result = await db.query(`SELECT rowid FROM entities WHERE tenant = $1 AND id = $2`, [tenant, id]);
    const rowid = (result.rows[0] as { rowid: number } | undefined)?.rowid;
    if (rowid === undefined) throw new NotFoundError(`no entity ${id} in tenant ${tenant}`);
    return rowid;
  };
  const memoryId = input.memoryId ?? null;
  let memoryRowid: number | null = null;
  if (memoryId !== null) {
    memoryRowid = await memoryRowidOf(db, tenant, memoryId);
    if (memoryRowid === null) throw new NotFoundError(`no memory ${memoryId} in tenant ${tenant}`);
  }
  return {
    id: input.id,
    fromRowid: await rowidOf(input.from),
    toRowid: await rowidOf(input.to),
    type: input.type,
    memoryRowid,
    validFrom: msOrNull(input.validFrom),
  };
}

/** Writes the relation unless an identical live one exists; returns the rowid of the one that holds. */
export async function insertRelation(db: Queryable, tenant: string, relation: ResolvedRelation, at: number): Promise<number> {
  const live = await db.query(
    `SELECT rowid FROM relations WHERE from_rowid = $1 AND to_rowid = $2 AND type = $3 AND invalidated_at IS NULL
     ORDER BY rowid LIMIT 1`,
    [relation.fromRowid, relation.toRowid, relation.type],
  );
  const held = (live.rows[0] as { rowid: number } | undefined)?.rowid;
  if (held !== undefined) return held;
  const inserted = await db.query(
    `INSERT INTO relations (tenant, id, from_rowid, to_rowid, type, memory_rowid, valid_from, invalidated_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8) RETURNING rowid`,
    [tenant, relation.id, relation.fromRowid, relation.toRowid, relation.type, relation.memoryRowid, relation.validFrom, at],
  );
  return (inserted.rows[0] as { rowid: number }).rowid;
}

/** The relations with these rowids, in that order. */
export async function readRelationsByRowid(db: Queryable, rowids: readonly number[]): Promise<Relation[]> {
  if (rowids.length === 0) return [];
  const result = await db.query(
    `${RELATION_SELECT} JOIN unnest($1::integer[]) WITH ORDINALITY AS k(rowid, n) ON r.rowid = k.rowid ORDER BY k.n`,
    [[...rowids]],
  );
  return (result.rows as RelationRow[]).map(rowToRelation);
}

/** Relations from or to any of these entities of `tenant`, newest first, at most `limit`. */
export async function listRelationRows(
  db: Queryable,
  tenant: string,
  entityIds: readonly string[],
  { includeInvalidated = false, limit }: RelationListOptions = {},
): Promise<Relation[]> {
  if (entityIds.length === 0 || limit === 0) return [];
  const params = new Params([tenant, [...entityIds]]);
  const live = includeInvalidated ? '' : 'AND r.invalidated_at IS NULL';
  const result = await db.query(
    `SELECT r.rowid FROM relations r JOIN entities e ON e.tenant = $1 AND e.id = ANY($2::text[])
       AND (r.from_rowid = e.rowid OR r.to_rowid = e.rowid)
     WHERE true ${live} GROUP BY r.rowid ORDER BY r.rowid DESC ${limit === undefined ? '' : `LIMIT ${params.add(limit)}`}`,
    params.values,
  );
  return readRelationsByRowid(
    db,
    (result.rows as { rowid: number }[]).map((row) => row.rowid),
  );
}

/** Relations leaving the entities with these rowids, oldest first. */
export async function relationsFrom(
  db: Queryable,
  entityRowids: readonly number[],
  includeInvalidated: boolean,
): Promise<Relation[]> {
  if (entityRowids.length === 0) return [];
  const result = await db.query(
    `${RELATION_SELECT} WHERE r.from_rowid = ANY($1::integer[]) ${includeInvalidated ? '' : 'AND r.invalidated_at IS NULL'} ORDER BY r.rowid`,
    [[...entityRowids]],
  );
  return (result.rows as RelationRow[]).map(rowToRelation);
}

/** Deletes relations by id; an extracted entity they alone held goes with them. */
export async function deleteRelationRows(db: Queryable, tenant: string, ids: readonly string[]): Promise<number> {
  const result = await db.query(
    `DELETE FROM relations WHERE tenant = $1 AND id = ANY($2::text[]) RETURNING from_rowid AS "from", to_rowid AS "to"`,
    [tenant, [...ids]],
  );
  await removeUnheldEntities(db, endsOf(result.rows));
  return result.rowCount ?? 0;
}

/** Both ends of the relations a statement returned (`from`, `to`). */
function endsOf(rows: readonly unknown[]): number[] {
  return (rows as { from: number; to: number }[]).flatMap((row) => [row.from, row.to]);
}

/** Ends the live relations the memories of `tenant` with these ids stated; an extracted entity they alone held goes. */
export async function invalidateRelationRows(
  db: Queryable,
  tenant: string,
  memoryIds: readonly string[],
  at: number,
): Promise<number> {
  const result = await db.query(
    `UPDATE relations SET invalidated_at = $1 WHERE invalidated_at IS NULL AND memory_rowid IN (
       SELECT rowid FROM memories WHERE tenant = $2 AND id = ANY($3::text[]))
     RETURNING from_rowid AS "from", to_rowid AS "to"`,
    [at, tenant, [...memoryIds]],
  );
  await removeUnheldEntities(db, endsOf(result.rows));
  return result.rowCount ?? 0;
}

/** Replaces the mentions of one memory; an entity named twice keeps its strongest role. */
export async function replaceMentions(
  db: Queryable,
  memoryRowid: number,
  mentions: readonly { entityRowid: number; role: MentionRole }[],
): Promise<void> {
  await db.query(`DELETE FROM mentions WHERE memory_rowid = $1`, [memoryRowid]);
  const strongest = new Map<number, MentionRole>();
  for (const { entityRowid, role } of mentions) {
    const held = strongest.get(entityRowid);
    if (held === undefined || roleRank(role) < roleRank(held)) strongest.set(entityRowid, role);
  }
  if (strongest.size === 0) return;
  await db.query(
    `INSERT INTO mentions (entity_rowid, memory_rowid, role) SELECT e, $1, r FROM unnest($2::integer[], $3::text[]) AS u(e, r)`,
    [memoryRowid, [...strongest.keys()], [...strongest.values()]],
  );
}

/**
 * Removes the mentions made by these memories of `tenant`, and their recorded extraction
 * failures (a forgotten memory is not extracted); an extracted entity they alone held goes.
 */
export async function removeMentionRows(db: Queryable, tenant: string, memoryIds: readonly string[]): Promise<number> {
  const rowids = await memoryRowids(db, tenant, memoryIds);
  if (rowids.length === 0) return 0;
  const held = await entitiesHeldBy(db, rowids);
  const result = await db.query(`DELETE FROM mentions WHERE memory_rowid = ANY($1::integer[])`, [rowids]);
  await clearExtractionFailures(db, rowids);
  await removeUnheldEntities(db, held);
  return result.rowCount ?? 0;
}

/** For each entity in order, the newest mentions by memories `filter` admits (see `MentionQuery`). */
export async function mentionsOfEntities(
  db: Queryable,
  filter: MemoryFilter,
  entityIds: readonly string[],
  { limitPerEntity, scanPerEntity }: MentionQuery,
): Promise<Mention[]> {
  if (entityIds.length === 0 || limitPerEntity <= 0) return [];
  const entities = await db.query(
    `SELECT e.rowid, e.id FROM unnest($1::text[]) WITH ORDINALITY AS k(id, n) JOIN entities e ON e.id = k.id
     WHERE e.tenant = $2 ORDER BY k.n`,
    [[...new Set(entityIds)], filter.tenant],
  );
  const mentions: Mention[] = [];
  for (const { rowid, id } of entities.rows as { rowid: number; id: string }[]) {
    const params = new Params([rowid]);
    const scan = scanPerEntity === undefined || scanPerEntity < 0 ? '' : `LIMIT ${params.add(scanPerEntity)}`;
    const where = filterClause(filter, 'm', params);
    const result = await db.query(
      `SELECT m.id AS "memoryId", x.role FROM
         (SELECT memory_rowid, role FROM mentions WHERE entity_rowid = $1 ORDER BY memory_rowid DESC ${scan}) x
       JOIN memories m ON m.rowid = x.memory_rowid
       WHERE ${where} ORDER BY x.memory_rowid DESC LIMIT ${params.add(limitPerEntity)}`,
      params.values,
    );
    for (const row of result.rows as { memoryId: string; role: string }[]) {
      mentions.push(toMention(filter.tenant, { ...row, entityId: id }));
    }
  }
  return mentions;
}

/** The mentions made by these memories of `tenant`, memory by memory, strongest role first. */
export async function mentionsInMemories(db: Queryable, tenant: string, memoryIds: readonly string[]): Promise<Mention[]> {
  if (memoryIds.length === 0) return [];
  const result = await db.query(
    `SELECT m.id AS "memoryId", e.id AS "entityId", x.role FROM unnest($1::text[]) WITH ORDINALITY AS k(id, n)
       JOIN memories m ON m.id = k.id JOIN mentions x ON x.memory_rowid = m.rowid JOIN entities e ON e.rowid = x.entity_rowid
     WHERE m.tenant = $2 ORDER BY k.n, ${ROLE_RANK_SQL('x.role')}, e.rowid`,
    [[...new Set(memoryIds)], tenant],
  );
  return (result.rows as { memoryId: string; entityId: string; role: string }[]).map((row) => toMention(tenant, row));
}
