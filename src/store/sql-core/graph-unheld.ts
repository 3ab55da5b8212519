/**
 * Removing what extraction made once nothing holds it: an entity with origin `extracted` that
 * no memory mentions, with no observation and no live relation (graph-store.ts, "Lifetimes").
 * Each write that can let go of an entity — re-extraction, removing mentions, purging memories,
 * deleting, ending or unobserving — names the entities it touched, and this removes those left
 * unheld, in the same transaction; SQLite's entity trigger and PostgreSQL's foreign keys take
 * their aliases and ended relations with them. A user's entity is never removed here.
 */
import { all, type Program, run } from './session.js';
import { JOIN_IN_ORDER, oneOf, raw, sql, table } from './sql.js';

/** Deletes the entities among `rowids` that extraction made and nothing holds any more; returns how many. */
export function* removeUnheldEntities(rowids: Iterable<number>): Program<number> {
  const candidates = [...new Set(rowids)];
  if (candidates.length === 0) return 0;
  return yield* run(
    sql`DELETE FROM entities WHERE ${oneOf(raw('rowid'), candidates, 'integer')}
        AND origin = 'extracted' AND observations = '[]'
        AND NOT EXISTS (SELECT 1 FROM mentions x WHERE x.entity_rowid = entities.rowid)
        AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.from_rowid = entities.rowid AND r.invalidated_at IS NULL)
        AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.to_rowid = entities.rowid AND r.invalidated_at IS NULL)`,
  );
}

/** The entities these memories (by rowid) mention or state a relation about: what forgetting them may let go. */
export function* entitiesHeldBy(memoryRowids: readonly number[]): Program<number[]> {
  if (memoryRowids.length === 0) return [];
  const each = () => table('j', memoryRowids, 'integer');
  const found = yield* all<{ rowid: number }>(
    sql`SELECT x.entity_rowid AS rowid FROM ${each()} ${JOIN_IN_ORDER} mentions x ON x.memory_rowid = j.value
      UNION SELECT r.from_rowid FROM ${each()} ${JOIN_IN_ORDER} relations r ON r.memory_rowid = j.value
      UNION SELECT r.to_rowid FROM ${each()} ${JOIN_IN_ORDER} relations r ON r.memory_rowid = j.value`,
  );
  return found.map((row) => row.rowid);
}

/** The rowids of the entities of `tenant` with these ids. */
export function* entityRowids(tenant: string, ids: readonly string[]): Program<number[]> {
  return yield* rowidsOf('entities', tenant, ids);
}

/** The rowids of the memories of `tenant` with these ids. */
export function* memoryRowids(tenant: string, ids: readonly string[]): Program<number[]> {
  return yield* rowidsOf('memories', tenant, ids);
}

function* rowidsOf(rows: 'entities' | 'memories', tenant: string, ids: readonly string[]): Program<number[]> {
  if (ids.length === 0) return [];
  const found = yield* all<{ rowid: number }>(
    sql`SELECT t.rowid AS rowid FROM ${table('j', ids)} ${JOIN_IN_ORDER} ${raw(rows)} t ON t.id = j.value
      WHERE t.tenant = ${tenant}`,
  );
  return found.map((row) => row.rowid);
}
