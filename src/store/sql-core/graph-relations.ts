/**
 * Relations, written once for both databases: adding them without duplicating a live one,
 * reading them by rowid or by the entities they leave, ending the ones a memory stated and
 * deleting them (and with them an extracted entity nothing else holds, graph-unheld.ts). Ends and
 * sources are stored as rowids; reads join them back to ids (see `RELATION_SELECT`). Listing the
 * relations of given entities is each driver's own (../sqlite/relation-list.ts,
 * ../postgres/relation-list.ts): each reads its indexes its own fastest way. The caller wraps
 * writes in a transaction.
 */
import { NotFoundError } from '../../errors.js';
import type { Relation } from '../../model/graph.js';
import type { RelationInput } from '../graph-store.js';
import { msOrNull, RELATION_SELECT, type RelationRow, rowToRelation } from './graph-rows.js';
import { removeUnheldEntities } from './graph-unheld.js';
import { all, get, type Program } from './session.js';
import { JOIN_IN_ORDER, oneOf, raw, sql, table } from './sql.js';

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
export function* memoryRowidOf(tenant: string, id: string): Program<number | null> {
  const row = yield* get<{ rowid: number }>(sql`SELECT rowid FROM memories WHERE tenant = ${tenant} AND id = ${id}`);
  return row?.rowid ?? null;
}

/** Resolves a relation's entity ids and memory id in `tenant`; unknown ones are `not_found`. */
export function* resolveRelation(tenant: string, input: RelationInput): Program<ResolvedRelation> {
  function* rowidOf(id: string): Program<number> {
    const row = yield* get<{ rowid: number }>(sql`SELECT rowid FROM entities WHERE tenant = ${tenant} AND id = ${id}`);
    if (row === undefined) throw new NotFoundError(`no entity ${id} in tenant ${tenant}`);
    return row.rowid;
  }
  const memoryId = input.memoryId ?? null;
  let memoryRowid: number | null = null;
  if (memoryId !== null) {
    memoryRowid = yield* memoryRowidOf(tenant, memoryId);
    if (memoryRowid === null) throw new NotFoundError(`no memory ${memoryId} in tenant ${tenant}`);
  }
  return {
    id: input.id,
    fromRowid: yield* rowidOf(input.from),
    toRowid: yield* rowidOf(input.to),
    type: input.type,
    memoryRowid,
    validFrom: msOrNull(input.validFrom),
  };
}

/** Writes the relation unless an identical live one exists; returns the rowid of the one that holds. */
export function* insertRelation(tenant: string, relation: ResolvedRelation, at: number): Program<number> {
  const live = yield* get<{ rowid: number }>(
    sql`SELECT rowid FROM relations WHERE from_rowid = ${relation.fromRowid} AND to_rowid = ${relation.toRowid}
      AND type = ${relation.type} AND invalidated_at IS NULL ORDER BY rowid LIMIT 1`,
  );
  if (live !== undefined) return live.rowid;
  const inserted = yield* get<{ rowid: number }>(
    sql`INSERT INTO relations (tenant, id, from_rowid, to_rowid, type, memory_rowid, valid_from, invalidated_at, created_at)
      VALUES (${tenant}, ${relation.id}, ${relation.fromRowid}, ${relation.toRowid}, ${relation.type}, ${relation.memoryRowid},
        ${relation.validFrom}, NULL, ${at}) RETURNING rowid`,
  );
  return (inserted as { rowid: number }).rowid;
}

/** The relations with these rowids, in that order. */
export function* readRelationsByRowid(rowids: readonly number[]): Program<Relation[]> {
  if (rowids.length === 0) return [];
  const found = yield* all<RelationRow>(
    sql`${raw(RELATION_SELECT)} JOIN ${table('j', rowids, 'integer')} ON r.rowid = j.value ORDER BY j.key`,
  );
  return found.map(rowToRelation);
}

/** Relations leaving the entities with these rowids, oldest first. */
export function* relationsFrom(entityRowids: readonly number[], includeInvalidated: boolean): Program<Relation[]> {
  if (entityRowids.length === 0) return [];
  const found = yield* all<RelationRow>(
    sql`${raw(RELATION_SELECT)} WHERE ${oneOf(raw('r.from_rowid'), entityRowids, 'integer')}
      ${raw(includeInvalidated ? '' : 'AND r.invalidated_at IS NULL')} ORDER BY r.rowid`,
  );
  return found.map(rowToRelation);
}

/** Deletes relations by id; an extracted entity they alone held goes with them. */
export function* deleteRelationRows(tenant: string, ids: readonly string[]): Program<number> {
  if (ids.length === 0) return 0;
  const ends = yield* all<Ends>(
    sql`DELETE FROM relations WHERE tenant = ${tenant} AND ${oneOf(raw('id'), ids)}
      RETURNING from_rowid AS "from", to_rowid AS "to"`,
  );
  yield* removeUnheldEntities(endsOf(ends));
  return ends.length;
}

/** Ends the live relations the memories of `tenant` with these ids stated; an extracted entity they alone held goes. */
export function* invalidateRelationRows(tenant: string, memoryIds: readonly string[], at: number): Program<number> {
  if (memoryIds.length === 0) return 0;
  const ends = yield* all<Ends>(
    sql`UPDATE relations SET invalidated_at = ${at} WHERE invalidated_at IS NULL AND memory_rowid IN (
        SELECT m.rowid FROM ${table('j', memoryIds)} ${JOIN_IN_ORDER} memories m ON m.id = j.value WHERE m.tenant = ${tenant})
      RETURNING from_rowid AS "from", to_rowid AS "to"`,
  );
  yield* removeUnheldEntities(endsOf(ends));
  return ends.length;
}

interface Ends {
  from: number;
  to: number;
}

/** Both ends of each relation. */
function endsOf(ends: readonly Ends[]): number[] {
  return ends.flatMap((row) => [row.from, row.to]);
}
