/**
 * The PostgreSQL side of entities: upserting by name (merging aliases and observations), reading
 * by id, name or alias, searching by words, deleting (foreign keys take the aliases, mentions and
 * relations with it) and changing observations. The same rules as ../sqlite/graph-entities.ts;
 * the caller wraps writes in a transaction.
 */
import { InvalidInputError } from '../../errors.js';
import { type Entity, entityKey } from '../../model/graph.js';
import { mergeAliases, mergeObservations } from '../graph-lists.js';
import type { EntityInput, ObservationChange } from '../graph-store.js';
import { claims, type EntityRow, rowToEntity, searchTextOf } from '../sqlite/graph-rows.js';
import type { Queryable } from './connection.js';
import { Params } from './filter-clause.js';

/** The stored entity `input` names, created or with its aliases and observations merged in. */
export async function upsertEntity(db: Queryable, tenant: string, input: EntityInput, at: number): Promise<EntityRow> {
  const key = entityKey(input.name);
  if (key === '') throw new InvalidInputError(`an entity needs a name (got "${input.name}")`);
  const found = await db.query(`SELECT * FROM entities WHERE tenant = $1 AND name_key = $2`, [tenant, key]);
  const existing = found.rows[0] as EntityRow | undefined;
  if (existing === undefined) {
    const aliases = mergeAliases(key, [], input.aliases ?? []);
    const observations = mergeObservations([], input.observations ?? []);
    const fields = { name: input.name.trim(), type: input.type, aliases, observations };
    const inserted = await db.query(
      `INSERT INTO entities (tenant, id, name, name_key, type, aliases, observations, search_text, origin, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING *`,
      [
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
      ],
    );
    const row = inserted.rows[0] as EntityRow;
    await insertAliasKeys(db, tenant, row.rowid, aliases);
    return row;
  }
  const entity = rowToEntity(existing);
  const aliases = mergeAliases(key, entity.aliases, input.aliases ?? []);
  const observations = mergeObservations(entity.observations, input.observations ?? []);
  const row = claims(input, existing) ? await claimEntity(db, existing.rowid) : existing;
  if (aliases.length === entity.aliases.length && observations.length === entity.observations.length) return row;
  await insertAliasKeys(db, tenant, existing.rowid, aliases.slice(entity.aliases.length));
  return writeLists(db, row, aliases, observations, at);
}

/** Makes the entity with this rowid the user's (see EntityOrigin). */
async function claimEntity(db: Queryable, rowid: number): Promise<EntityRow> {
  return (await db.query(`UPDATE entities SET origin = 'user' WHERE rowid = $1 RETURNING *`, [rowid])).rows[0] as EntityRow;
}

/** The entities of `tenant` with these ids, in the order asked for, each once. */
export async function readEntities(db: Queryable, tenant: string, ids: readonly string[]): Promise<Entity[]> {
  if (ids.length === 0) return [];
  const result = await db.query(`SELECT * FROM entities WHERE tenant = $1 AND id = ANY($2::text[])`, [tenant, [...ids]]);
  const byId = new Map((result.rows as EntityRow[]).map((row) => [row.id, row]));
  return uniqueEntities(ids.flatMap((id) => byId.get(id) ?? []));
}

/** Entities by name, then by alias, for each name in order; each once. */
export async function findEntityRows(db: Queryable, tenant: string, names: readonly string[]): Promise<EntityRow[]> {
  const keys = names.map(entityKey).filter((key) => key !== '');
  if (keys.length === 0) return [];
  const result = await db.query(
    `SELECT k.n AS position, 0 AS via, e.* FROM unnest($1::text[]) WITH ORDINALITY AS k(key, n)
       JOIN entities e ON e.tenant = $2 AND e.name_key = k.key
     UNION ALL
     SELECT k.n AS position, 1 AS via, e.* FROM unnest($1::text[]) WITH ORDINALITY AS k(key, n)
       JOIN entity_aliases a ON a.tenant = $2 AND a.alias_key = k.key
       JOIN entities e ON e.rowid = a.entity_rowid
     ORDER BY position, via, rowid`,
    [keys, tenant],
  );
  const seen = new Set<number>();
  return (result.rows as EntityRow[]).filter((row) => !seen.has(row.rowid) && seen.add(row.rowid));
}

/** Entities holding every word of `query` in some field, those whose name holds the query or its words first. */
export async function searchEntityRows(db: Queryable, tenant: string, query: string, limit: number): Promise<Entity[]> {
  const key = entityKey(query);
  if (key === '' || limit <= 0) return [];
  const words = [...new Set(key.split(' '))];
  const params = new Params([tenant, words, key]);
  const result = await db.query(
    `SELECT * FROM entities e WHERE tenant = $1
       AND NOT EXISTS (SELECT 1 FROM unnest($2::text[]) w WHERE strpos(e.search_text, w) = 0)
     ORDER BY CASE WHEN name_key = $3 THEN 0 WHEN strpos(name_key, $3) > 0 THEN 1
       WHEN EXISTS (SELECT 1 FROM unnest($2::text[]) w WHERE strpos(e.name_key, w) > 0) THEN 2 ELSE 3 END, rowid
     LIMIT ${params.add(limit)}`,
    params.values,
  );
  return (result.rows as EntityRow[]).map(rowToEntity);
}

/** Deletes entities by id; foreign keys remove their aliases, mentions and relations. */
export async function deleteEntityRows(db: Queryable, tenant: string, ids: readonly string[]): Promise<number> {
  const result = await db.query(`DELETE FROM entities WHERE tenant = $1 AND id = ANY($2::text[])`, [tenant, [...ids]]);
  return result.rowCount ?? 0;
}

/**
 * Adds or removes observations on each named entity; returns what changed, per known entity.
 * Adding makes an extracted entity the user's; the caller removes one left unheld by removing.
 */
export async function changeObservations(
  db: Queryable,
  tenant: string,
  changes: readonly ObservationChange[],
  mode: 'add' | 'remove',
  at: number,
): Promise<ObservationChange[]> {
  const done: ObservationChange[] = [];
  for (const change of changes) {
    const found = await db.query(`SELECT * FROM entities WHERE tenant = $1 AND id = $2`, [tenant, change.entityId]);
    const row = found.rows[0] as EntityRow | undefined;
    if (row === undefined) continue;
    const entity = rowToEntity(row);
    const gone = new Set(change.observations);
    const observations =
      mode === 'add'
        ? mergeObservations(entity.observations, change.observations)
        : entity.observations.filter((o) => !gone.has(o));
    const changed =
      mode === 'add' ? observations.slice(entity.observations.length) : entity.observations.filter((o) => gone.has(o));
    if (changed.length > 0) await writeLists(db, row, entity.aliases, observations, at);
    // Adding facts to an entity is making it one's own; it is kept from then on.
    if (mode === 'add' && row.origin === 'extracted') await claimEntity(db, row.rowid);
    done.push({ entityId: change.entityId, observations: changed });
  }
  return done;
}

/** Rows as entities, each once, in the order of their first appearance. */
function uniqueEntities(rows: readonly EntityRow[]): Entity[] {
  const seen = new Set<number>();
  return rows.filter((row) => !seen.has(row.rowid) && seen.add(row.rowid)).map(rowToEntity);
}

async function writeLists(
  db: Queryable,
  row: EntityRow,
  aliases: string[],
  observations: string[],
  at: number,
): Promise<EntityRow> {
  const searchText = searchTextOf({ name: row.name, type: row.type, aliases, observations });
  const result = await db.query(
    `UPDATE entities SET aliases = $1, observations = $2, search_text = $3, updated_at = $4 WHERE rowid = $5 RETURNING *`,
    [JSON.stringify(aliases), JSON.stringify(observations), searchText, at, row.rowid],
  );
  return result.rows[0] as EntityRow;
}

async function insertAliasKeys(db: Queryable, tenant: string, rowid: number, aliases: readonly string[]): Promise<void> {
  if (aliases.length === 0) return;
  await db.query(
    `INSERT INTO entity_aliases (tenant, alias_key, entity_rowid) SELECT $1, k, $2 FROM unnest($3::text[]) AS k
     ON CONFLICT DO NOTHING`,
    [tenant, rowid, aliases.map(entityKey)],
  );
}
