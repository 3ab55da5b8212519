/**
 * The SQLite side of relations: adding them without duplicating a live one, listing those that
 * touch given entities, ending the ones a memory stated and deleting them (and with them an
 * extracted entity nothing else holds, graph-unheld.ts). Ends and sources are
 * stored as rowids; reads join them back to ids (see `RELATION_SELECT`). The caller wraps writes
 * in a transaction.
 */
import type Database from 'better-sqlite3';

import { NotFoundError } from '../../errors.js';
import type { Relation } from '../../model/graph.js';
import type { RelationInput, RelationListOptions } from '../graph-store.js';
import { msOrNull, RELATION_SELECT, type RelationRow, rowToRelation } from './graph-rows.js';
import { removeUnheldEntities } from './graph-unheld.js';
import { cachedStatement } from './statement-cache.js';

/** A relation to write, with its ends and source already resolved to rowids. */
export interface ResolvedRelation {
  id: string;
  fromRowid: number;
  toRowid: number;
  type: string;
  memoryRowid: number | null;
  validFrom: number | null;
}

/** Resolves a relation's entity ids and memory id in `tenant`; unknown ones are `not_found`. */
export function resolveRelation(db: Database.Database, tenant: string, input: RelationInput): ResolvedRelation {
  const entity = db.prepare(`SELECT rowid FROM entities WHERE tenant = ? AND id = ?`).pluck();
  const rowidOf = (id: string): number => {
    const rowid = entity.get(tenant, id) as number | undefined;
    if (rowid === undefined) throw new NotFoundError(`no entity ${id} in tenant ${tenant}`);
    return rowid;
  };
  const memoryId = input.memoryId ?? null;
  let memoryRowid: number | null = null;
  if (memoryId !== null) {
    memoryRowid = memoryRowidOf(db, tenant, memoryId);
    if (memoryRowid === null) throw new NotFoundError(`no memory ${memoryId} in tenant ${tenant}`);
  }
  return {
    id: input.id,
    fromRowid: rowidOf(input.from),
    toRowid: rowidOf(input.to),
    type: input.type,
    memoryRowid,
    validFrom: msOrNull(input.validFrom),
  };
}

/** Writes the relation unless an identical live one exists; returns the rowid of the one that holds. */
export function insertRelation(db: Database.Database, tenant: string, relation: ResolvedRelation, at: number): number {
  const live = db
    .prepare(
      `SELECT rowid FROM relations WHERE from_rowid = ? AND to_rowid = ? AND type = ? AND invalidated_at IS NULL ORDER BY rowid LIMIT 1`,
    )
    .pluck()
    .get(relation.fromRowid, relation.toRowid, relation.type) as number | undefined;
  if (live !== undefined) return live;
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO relations (tenant, id, from_rowid, to_rowid, type, memory_rowid, valid_from, invalidated_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
    )
    .run(tenant, relation.id, relation.fromRowid, relation.toRowid, relation.type, relation.memoryRowid, relation.validFrom, at);
  return Number(lastInsertRowid);
}

/** The relations with these rowids, in that order. */
export function readRelationsByRowid(db: Database.Database, rowids: readonly number[]): Relation[] {
  if (rowids.length === 0) return [];
  const rows = cachedStatement(db, `${RELATION_SELECT} JOIN json_each(?) j ON r.rowid = j.value ORDER BY j.key`).all(
    JSON.stringify(rowids),
  ) as RelationRow[];
  return rows.map(rowToRelation);
}

/**
 * Relations from or to any of these entities of `tenant`, newest first. Each end of each entity
 * is read newest first off its index and stopped at the limit, so a hub entity with thousands of
 * relations costs no more than the limit.
 */
export function listRelationRows(
  db: Database.Database,
  tenant: string,
  entityIds: readonly string[],
  { includeInvalidated = false, limit = -1 }: RelationListOptions = {},
): Relation[] {
  if (entityIds.length === 0 || limit === 0) return [];
  const entities = cachedStatement(
    db,
    `SELECT e.rowid FROM json_each(?) j CROSS JOIN entities e ON e.id = j.value WHERE e.tenant = ?`,
  )
    .pluck()
    .all(JSON.stringify(entityIds), tenant) as number[];
  const live = includeInvalidated ? '' : 'AND invalidated_at IS NULL';
  const ends = ['from_rowid', 'to_rowid'].map((end) =>
    cachedStatement(db, `SELECT rowid FROM relations WHERE ${end} = ? ${live} ORDER BY rowid DESC LIMIT ?`).pluck(),
  );
  const rowids = new Set<number>();
  for (const entity of entities)
    for (const end of ends) for (const rowid of end.all(entity, limit) as number[]) rowids.add(rowid);
  const newest = [...rowids].sort((a, b) => b - a);
  return readRelationsByRowid(db, limit < 0 ? newest : newest.slice(0, limit));
}

/** Relations leaving the entities with these rowids, oldest first. */
export function relationsFrom(db: Database.Database, entityRowids: readonly number[], includeInvalidated: boolean): Relation[] {
  if (entityRowids.length === 0) return [];
  const rows = db
    .prepare(
      `${RELATION_SELECT} WHERE r.from_rowid IN (SELECT value FROM json_each(?))
       ${includeInvalidated ? '' : 'AND r.invalidated_at IS NULL'} ORDER BY r.rowid`,
    )
    .all(JSON.stringify(entityRowids)) as RelationRow[];
  return rows.map(rowToRelation);
}

/** Deletes relations by id; an extracted entity they alone held goes with them. */
export function deleteRelationRows(db: Database.Database, tenant: string, ids: readonly string[]): number {
  const where = `tenant = ? AND id IN (SELECT value FROM json_each(?))`;
  const ends = endsOf(db, `SELECT from_rowid, to_rowid FROM relations WHERE ${where}`, tenant, JSON.stringify(ids));
  const deleted = db.prepare(`DELETE FROM relations WHERE ${where}`).run(tenant, JSON.stringify(ids)).changes;
  removeUnheldEntities(db, ends);
  return deleted;
}

/** Ends the live relations the memories of `tenant` with these ids stated; an extracted entity they alone held goes. */
export function invalidateRelationRows(db: Database.Database, tenant: string, memoryIds: readonly string[], at: number): number {
  const where = `invalidated_at IS NULL AND memory_rowid IN (
    SELECT m.rowid FROM json_each(?) j CROSS JOIN memories m ON m.id = j.value WHERE m.tenant = ?)`;
  const ends = endsOf(db, `SELECT from_rowid, to_rowid FROM relations WHERE ${where}`, JSON.stringify(memoryIds), tenant);
  const ended = db
    .prepare(`UPDATE relations SET invalidated_at = ? WHERE ${where}`)
    .run(at, JSON.stringify(memoryIds), tenant).changes;
  removeUnheldEntities(db, ends);
  return ended;
}

/** Both ends of the relations `sql` selects (`from_rowid, to_rowid`). */
function endsOf(db: Database.Database, sql: string, ...params: unknown[]): number[] {
  return (
    db
      .prepare(sql)
      .raw()
      .all(...params) as [number, number][]
  ).flat();
}

/** The rowid of the memory of `tenant` with this id, or null. */
export function memoryRowidOf(db: Database.Database, tenant: string, id: string): number | null {
  const rowid = db.prepare(`SELECT rowid FROM memories WHERE tenant = ? AND id = ?`).pluck().get(tenant, id) as
    number | undefined;
  return rowid ?? null;
}
