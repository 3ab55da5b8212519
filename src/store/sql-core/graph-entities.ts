/**
 * Entities, written once for both databases: upserting by name (merging aliases and
 * observations), reading by id, name or alias, searching by words, deleting (SQLite's entity
 * trigger, PostgreSQL's foreign keys take the aliases, mentions and relations with it) and
 * changing observations. The caller wraps writes in a transaction.
 */
import { InvalidInputError } from '../../errors.js';
import { type Entity, entityKey } from '../../model/graph.js';
import { mergeAliases, mergeObservations } from '../graph-lists.js';
import type { EntityInput, ObservationChange } from '../graph-store.js';
import { claims, type EntityRow, rowToEntity, searchTextOf } from './graph-rows.js';
import { all, get, type Program, run } from './session.js';
import { JOIN_IN_ORDER, limit as limitTo, oneOf, position, raw, sql, table } from './sql.js';

/** The stored entity `input` names, created or with its aliases and observations merged in. */
export function* upsertEntity(tenant: string, input: EntityInput, at: number): Program<EntityRow> {
  const key = entityKey(input.name);
  if (key === '') throw new InvalidInputError(`an entity needs a name (got "${input.name}")`);
  const existing = yield* get<EntityRow>(sql`SELECT * FROM entities WHERE tenant = ${tenant} AND name_key = ${key}`);
  if (existing === undefined) {
    const aliases = mergeAliases(key, [], input.aliases ?? []);
    const observations = mergeObservations([], input.observations ?? []);
    const fields = { name: input.name.trim(), type: input.type, aliases, observations };
    const row = (yield* get<EntityRow>(
      sql`INSERT INTO entities (tenant, id, name, name_key, type, aliases, observations, search_text, origin, created_at, updated_at)
        VALUES (${tenant}, ${input.id}, ${fields.name}, ${key}, ${input.type}, ${JSON.stringify(aliases)},
          ${JSON.stringify(observations)}, ${searchTextOf(fields)}, ${input.origin ?? 'user'}, ${at}, ${at}) RETURNING *`,
    )) as EntityRow;
    yield* insertAliasKeys(tenant, row.rowid, aliases);
    return row;
  }
  const entity = rowToEntity(existing);
  const aliases = mergeAliases(key, entity.aliases, input.aliases ?? []);
  const observations = mergeObservations(entity.observations, input.observations ?? []);
  const row = claims(input, existing) ? yield* claimEntity(existing.rowid) : existing;
  if (aliases.length === entity.aliases.length && observations.length === entity.observations.length) return row;
  yield* insertAliasKeys(tenant, existing.rowid, aliases.slice(entity.aliases.length));
  return yield* writeLists(row, aliases, observations, at);
}

/** The entities of `tenant` with these ids, in the order asked for, each once. */
export function* readEntities(tenant: string, ids: readonly string[]): Program<Entity[]> {
  if (ids.length === 0) return [];
  const found = yield* all<EntityRow>(
    sql`SELECT e.* FROM ${table('j', ids)} ${JOIN_IN_ORDER} entities e ON e.id = j.value WHERE e.tenant = ${tenant}
      ORDER BY j.key`,
  );
  return uniqueRows(found).map(rowToEntity);
}

/** Entities by name, then by alias, for each name in order; each once. */
export function* findEntityRows(tenant: string, names: readonly string[]): Program<EntityRow[]> {
  return uniqueRows((yield* findEntityRowsByName(tenant, names)).flat());
}

/** For each of `names`, its entities: the one of that name, then those with it as an alias, each once. */
export function* findEntityRowsByName(tenant: string, names: readonly string[]): Program<EntityRow[][]> {
  const keys = [...new Set(names.map(entityKey).filter((key) => key !== ''))];
  if (keys.length === 0) return names.map(() => []);
  const found = yield* all<EntityRow & { matched: string }>(
    sql`SELECT j.key AS position, j.value AS matched, 0 AS via, e.* FROM ${table('j', keys)}
        ${JOIN_IN_ORDER} entities e ON e.tenant = ${tenant} AND e.name_key = j.value
      UNION ALL
      SELECT j.key AS position, j.value AS matched, 1 AS via, e.* FROM ${table('j', keys)}
        ${JOIN_IN_ORDER} entity_aliases a ON a.tenant = ${tenant} AND a.alias_key = j.value
        ${JOIN_IN_ORDER} entities e ON e.rowid = a.entity_rowid
      ORDER BY position, via, rowid`,
  );
  const byKey = new Map<string, EntityRow[]>();
  for (const { matched, ...row } of found) byKey.set(matched, [...(byKey.get(matched) ?? []), row as EntityRow]);
  return names.map((name) => uniqueRows(byKey.get(entityKey(name)) ?? []));
}

/** Entities holding every word of `query` in some field, those whose name holds the query or its words first. */
export function* searchEntityRows(tenant: string, query: string, limit: number): Program<Entity[]> {
  const key = entityKey(query);
  if (key === '' || limit <= 0) return [];
  const words = [...new Set(key.split(' '))];
  // Rank: the name is the query, holds the query, holds a word of it, or only another field does.
  const found = yield* all<EntityRow>(
    sql`SELECT * FROM entities e WHERE e.tenant = ${tenant}
        AND NOT EXISTS (SELECT 1 FROM ${table('w', words)} WHERE ${position(raw('e.search_text'), raw('w.value'))} = 0)
      ORDER BY CASE WHEN e.name_key = ${key} THEN 0 WHEN ${position(raw('e.name_key'), sql`${key}`)} > 0 THEN 1
        WHEN EXISTS (SELECT 1 FROM ${table('w', words)} WHERE ${position(raw('e.name_key'), raw('w.value'))} > 0) THEN 2
        ELSE 3 END, e.rowid ${limitTo(limit)}`,
  );
  return found.map(rowToEntity);
}

/** Deletes entities by id; their aliases, mentions and relations go with them. */
export function* deleteEntityRows(tenant: string, ids: readonly string[]): Program<number> {
  if (ids.length === 0) return 0;
  return yield* run(sql`DELETE FROM entities WHERE tenant = ${tenant} AND ${oneOf(raw('id'), ids)}`);
}

/**
 * Adds or removes observations on each named entity; returns what changed, per known entity.
 * Adding makes an extracted entity the user's; the caller removes one left unheld by removing.
 */
export function* changeObservations(
  tenant: string,
  changes: readonly ObservationChange[],
  mode: 'add' | 'remove',
  at: number,
): Program<ObservationChange[]> {
  const done: ObservationChange[] = [];
  for (const change of changes) {
    const row = yield* get<EntityRow>(sql`SELECT * FROM entities WHERE tenant = ${tenant} AND id = ${change.entityId}`);
    if (row === undefined) continue;
    const entity = rowToEntity(row);
    const gone = new Set(change.observations);
    const observations =
      mode === 'add'
        ? mergeObservations(entity.observations, change.observations)
        : entity.observations.filter((o) => !gone.has(o));
    const changed =
      mode === 'add' ? observations.slice(entity.observations.length) : entity.observations.filter((o) => gone.has(o));
    if (changed.length > 0) yield* writeLists(row, entity.aliases, observations, at);
    // Adding facts to an entity is making it one's own; it is kept from then on.
    if (mode === 'add' && row.origin === 'extracted') yield* claimEntity(row.rowid);
    done.push({ entityId: change.entityId, observations: changed });
  }
  return done;
}

/** Makes the entity with this rowid the user's (see EntityOrigin). */
function* claimEntity(rowid: number): Program<EntityRow> {
  return (yield* get<EntityRow>(sql`UPDATE entities SET origin = 'user' WHERE rowid = ${rowid} RETURNING *`)) as EntityRow;
}

/** Rows each once, in the order of their first appearance. */
function uniqueRows(found: readonly EntityRow[]): EntityRow[] {
  const seen = new Set<number>();
  return found.filter((row) => !seen.has(row.rowid) && seen.add(row.rowid));
}

function* writeLists(row: EntityRow, aliases: string[], observations: string[], at: number): Program<EntityRow> {
  const searchText = searchTextOf({ name: row.name, type: row.type, aliases, observations });
  return (yield* get<EntityRow>(
    sql`UPDATE entities SET aliases = ${JSON.stringify(aliases)}, observations = ${JSON.stringify(observations)},
      search_text = ${searchText}, updated_at = ${at} WHERE rowid = ${row.rowid} RETURNING *`,
  )) as EntityRow;
}

function* insertAliasKeys(tenant: string, rowid: number, aliases: readonly string[]): Program<void> {
  if (aliases.length === 0) return;
  yield* run(
    sql`INSERT INTO entity_aliases (tenant, alias_key, entity_rowid)
      SELECT ${tenant}, j.value, ${rowid} FROM ${table('j', aliases.map(entityKey))} WHERE true ON CONFLICT DO NOTHING`,
  );
}
