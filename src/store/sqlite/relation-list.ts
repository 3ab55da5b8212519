/**
 * Listing the relations that touch given entities, the SQLite way: each end of each entity is
 * read newest first off its index and stopped at the limit, so a hub entity with thousands of
 * relations costs no more than the limit (PostgreSQL reads them in one statement instead:
 * ../postgres/relation-list.ts).
 */
import type { Relation } from '../../model/graph.js';
import type { RelationListOptions } from '../graph-store.js';
import { readRelationsByRowid } from '../sql-core/graph-relations.js';
import { all, type Program } from '../sql-core/session.js';
import { JOIN_IN_ORDER, limit as limitTo, raw, sql, table } from '../sql-core/sql.js';

/** Relations from or to any of these entities of `tenant`, newest first. */
export function* listRelationRows(
  tenant: string,
  entityIds: readonly string[],
  { includeInvalidated = false, limit = -1 }: RelationListOptions = {},
): Program<Relation[]> {
  if (entityIds.length === 0 || limit === 0) return [];
  const entities = yield* all<{ rowid: number }>(
    sql`SELECT e.rowid AS rowid FROM ${table('j', entityIds)} ${JOIN_IN_ORDER} entities e ON e.id = j.value
      WHERE e.tenant = ${tenant}`,
  );
  const live = raw(includeInvalidated ? '' : 'AND invalidated_at IS NULL');
  const rowids = new Set<number>();
  for (const entity of entities) {
    for (const end of [raw('from_rowid'), raw('to_rowid')]) {
      const found = yield* all<{ rowid: number }>(
        sql`SELECT rowid FROM relations WHERE ${end} = ${entity.rowid} ${live} ORDER BY rowid DESC ${limitTo(limit)}`,
      );
      for (const row of found) rowids.add(row.rowid);
    }
  }
  const newest = [...rowids].sort((a, b) => b - a);
  return yield* readRelationsByRowid(limit < 0 ? newest : newest.slice(0, limit));
}
