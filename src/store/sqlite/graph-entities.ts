/**
 * The SQLite side of entities: upserting by name (merging aliases and observations), reading by
 * id, name or alias, searching by words, deleting (the entity trigger of migration 6 takes the
 * aliases, mentions and relations with it) and changing observations. The caller wraps writes in
 * a transaction.
 */
import type Database from 'better-sqlite3';

import { InvalidInputError } from '../../errors.js';
import { type Entity, entityKey } from '../../model/graph.js';
import { mergeAliases, mergeObservations } from '../graph-lists.js';
import type { EntityInput, ObservationChange } from '../graph-store.js';
import { claims, type EntityRow, rowToEntity, searchTextOf } from './graph-rows.js';
import { cachedStatement } from './statement-cache.js';

/** The stored entity `input` names, created or with its aliases and observations merged in. */
export function upsertEntity(db: Database.Database, tenant: string, input: EntityInput, at: number): EntityRow {
  const key = entityKey(input.name);
  if (key === '') throw new InvalidInputError(`an entity needs a name (got "${input.name}")`);
  const existing = db.prepare(`SELECT * FROM entities WHERE tenant = ? AND name_key = ?`).get(tenant, key) as
    EntityRow | undefined;
  if (existing === undefined) {
    const aliases = mergeAliases(key, [], input.aliases ?? []);
    const observations = mergeObservations([], input.observations ?? []);
    const fields = { name: input.name.trim(), type: input.type, aliases, observations };
    const { lastInsertRowid } = db
      .prepare(
        `INSERT INTO entities (tenant, id, name, name_key, type, aliases, observations, search_text, origin, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        tenant,
        input.id,
        fields.name,
        key,
        input.type,
        JSON.stringify(aliases),
        JSON.stringify(observations),
        searchTextOf(fields),
        input.origin ?? 'user',
        at,
        at,
      );
    const rowid = Number(lastInsertRowid);
    insertAliasKeys(db, tenant, rowid, aliases);
    return entityRowById(db, rowid);
  }
  const entity = rowToEntity(existing);
  const aliases = mergeAliases(key, entity.aliases, input.aliases ?? []);
  const observations = mergeObservations(entity.observations, input.observations ?? []);
  const claimed = claims(input, existing);
  if (claimed) db.prepare(`UPDATE entities SET origin = 'user' WHERE rowid = ?`).run(existing.rowid);
  if (aliases.length === entity.aliases.length && observations.length === entity.observations.length) {
    return claimed ? entityRowById(db, existing.rowid) : existing;
  }
  insertAliasKeys(db, tenant, existing.rowid, aliases.slice(entity.aliases.length));
  writeLists(db, existing, aliases, observations, at);
  return entityRowById(db, existing.rowid);
}

/** The entities of `tenant` with these ids, in the order asked for. */
export function readEntities(db: Database.Database, tenant: string, ids: readonly string[]): Entity[] {
  if (ids.length === 0) return [];
  const rows = cachedStatement(
    db,
    `SELECT e.* FROM json_each(?) j CROSS JOIN entities e ON e.id = j.value WHERE e.tenant = ? ORDER BY j.key`,
  ).all(JSON.stringify(ids), tenant) as EntityRow[];
  return uniqueEntities(rows);
}

/** Entities by name, then by alias, for each name in order; each once. */
export function findEntityRows(db: Database.Database, tenant: string, names: readonly string[]): EntityRow[] {
  const keys = names.map(entityKey).filter((key) => key !== '');
  if (keys.length === 0) return [];
  const rows = cachedStatement(
    db,
    `SELECT j.key AS position, 0 AS via, e.* FROM json_each(?) j
         CROSS JOIN entities e ON e.tenant = ? AND e.name_key = j.value
       UNION ALL
       SELECT j.key AS position, 1 AS via, e.* FROM json_each(?) j
         CROSS JOIN entity_aliases a ON a.tenant = ? AND a.alias_key = j.value
         CROSS JOIN entities e ON e.rowid = a.entity_rowid
       ORDER BY position, via, rowid`,
  ).all(JSON.stringify(keys), tenant, JSON.stringify(keys), tenant) as EntityRow[];
  const seen = new Set<number>();
  return rows.filter((row) => !seen.has(row.rowid) && seen.add(row.rowid));
}

/** Entities holding every word of `query` in some field, those whose name holds the query or its words first. */
export function searchEntityRows(db: Database.Database, tenant: string, query: string, limit: number): Entity[] {
  const key = entityKey(query);
  if (key === '' || limit <= 0) return [];
  const words = [...new Set(key.split(' '))];
  const each = (test: string, joint: string) => words.map(() => test).join(joint);
  // Rank: the name is the query, holds the query, holds a word of it, or only another field does.
  const rows = db
    .prepare(
      `SELECT * FROM entities WHERE tenant = ? AND ${each('instr(search_text, ?) > 0', ' AND ')}
       ORDER BY CASE WHEN name_key = ? THEN 0 WHEN instr(name_key, ?) > 0 THEN 1
         WHEN ${each('instr(name_key, ?) > 0', ' OR ')} THEN 2 ELSE 3 END, rowid LIMIT ?`,
    )
    .all(tenant, ...words, key, key, ...words, limit) as EntityRow[];
  return rows.map(rowToEntity);
}

/** Deletes entities by id; the migration's trigger removes their aliases, mentions and relations. */
export function deleteEntityRows(db: Database.Database, tenant: string, ids: readonly string[]): number {
  return db
    .prepare(`DELETE FROM entities WHERE tenant = ? AND id IN (SELECT value FROM json_each(?))`)
    .run(tenant, JSON.stringify(ids)).changes;
}

/**
 * Adds or removes observations on each named entity; returns what changed, per known entity.
 * Adding makes an extracted entity the user's; the caller removes one left unheld by removing.
 */
export function changeObservations(
  db: Database.Database,
  tenant: string,
  changes: readonly ObservationChange[],
  mode: 'add' | 'remove',
  at: number,
): ObservationChange[] {
  const read = db.prepare(`SELECT * FROM entities WHERE tenant = ? AND id = ?`);
  const done: ObservationChange[] = [];
  for (const change of changes) {
    const row = read.get(tenant, change.entityId) as EntityRow | undefined;
    if (row === undefined) continue;
    const entity = rowToEntity(row);
    const gone = new Set(change.observations);
    const observations =
      mode === 'add'
        ? mergeObservations(entity.observations, change.observations)
        : entity.observations.filter((o) => !gone.has(o));
    const changed =
      mode === 'add' ? observations.slice(entity.observations.length) : entity.observations.filter((o) => gone.has(o));
    if (changed.length > 0) writeLists(db, row, entity.aliases, observations, at);
    // Adding facts to an entity is making it one's own; it is kept from then on.
    if (mode === 'add' && row.origin === 'extracted')
      db.prepare(`UPDATE entities SET origin = 'user' WHERE rowid = ?`).run(row.rowid);
    done.push({ entityId: change.entityId, observations: changed });
  }
  return done;
}

export function entityRowById(db: Database.Database, rowid: number): EntityRow {
  return db.prepare(`SELECT * FROM entities WHERE rowid = ?`).get(rowid) as EntityRow;
}

/** Rows as entities, each once, in the order of their first appearance. */
function uniqueEntities(rows: readonly EntityRow[]): Entity[] {
  const seen = new Set<number>();
  return rows.filter((row) => !seen.has(row.rowid) && seen.add(row.rowid)).map(rowToEntity);
}

function writeLists(db: Database.Database, row: EntityRow, aliases: string[], observations: string[], at: number): void {
  const searchText = searchTextOf({ name: row.name, type: row.type, aliases, observations });
  db.prepare(`UPDATE entities SET aliases = ?, observations = ?, search_text = ?, updated_at = ? WHERE rowid = ?`).run(
    JSON.stringify(aliases),
    JSON.stringify(observations),
    searchText,
    at,
    row.rowid,
  );
}

function insertAliasKeys(db: Database.Database, tenant: string, rowid: number, aliases: readonly string[]): void {
  const insert = db.prepare(`INSERT OR IGNORE INTO entity_aliases (tenant, alias_key, entity_rowid) VALUES (?, ?, ?)`);
  for (const alias of aliases) insert.run(tenant, entityKey(alias), rowid);
}
