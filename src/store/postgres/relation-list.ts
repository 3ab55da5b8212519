/**
 * Listing the relations that touch given entities, the PostgreSQL way: one statement over both
 * ends, newest first, at most the limit (SQLite walks each end's index instead:
 * ../sqlite/relation-list.ts).
 */
import type { Relation } from '../../model/graph.js';
import type { RelationListOptions } from '../graph-store.js';
import { readRelationsByRowid } from '../sql-core/graph-relations.js';
import { all, type Program } from '../sql-core/session.js';
import { limit as limitTo, oneOf, raw, sql } from '../sql-core/sql.js';

/** Relations from or to any of these entities of `tenant`, newest first, at most `limit`. */
export function* listRelationRows(
  tenant: string,
  entityIds: readonly string[],
  { includeInvalidated = false, limit }: RelationListOptions = {},
): Program<Relation[]> {
  if (entityIds.length === 0 || limit === 0) return [];
  const found = yield* all<{ rowid: number }>(
    sql`SELECT r.rowid AS rowid FROM relations r JOIN entities e ON e.tenant = ${tenant} AND ${oneOf(raw('e.id'), entityIds)}
        AND (r.from_rowid = e.rowid OR r.to_rowid = e.rowid)
      WHERE true ${raw(includeInvalidated ? '' : 'AND r.invalidated_at IS NULL')} GROUP BY r.rowid ORDER BY r.rowid DESC
      ${limitTo(limit)}`,
  );
  return yield* readRelationsByRowid(found.map((row) => row.rowid));
}
