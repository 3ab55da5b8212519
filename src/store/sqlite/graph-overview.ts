/**
 * The SQLite side of looking at a tenant's whole graph: a page of entities with the relations
 * leaving them (for the MCP `read_graph` tool), and the counts for statistics.
 */
import type Database from 'better-sqlite3';

import type { GraphCounts, GraphPage } from '../graph-store.js';
import { countFailureRows } from './graph-failures.js';
import { relationsFrom } from './graph-relations.js';
import { type EntityRow, rowToEntity } from './graph-rows.js';

/** Entities in creation order from `offset`, with the relations whose `from` is among them. */
export function readGraphPage(
  db: Database.Database,
  tenant: string,
  { offset = 0, limit, includeInvalidated = false }: { offset?: number; limit: number; includeInvalidated?: boolean },
): GraphPage {
  const totalEntities = db.prepare(`SELECT count(*) FROM entities WHERE tenant = ?`).pluck().get(tenant) as number;
  const rows =
    limit <= 0
      ? []
      : (db
          .prepare(`SELECT * FROM entities WHERE tenant = ? ORDER BY rowid LIMIT ? OFFSET ?`)
          .all(tenant, limit, Math.max(0, offset)) as EntityRow[]);
  return {
    entities: rows.map(rowToEntity),
    relations: relationsFrom(
      db,
      rows.map((row) => row.rowid),
      includeInvalidated,
    ),
    totalEntities,
  };
}

export function countGraphRows(db: Database.Database, tenant: string): GraphCounts {
  const one = (sql: string) => db.prepare(sql).pluck().get(tenant) as number;
  return {
    entities: one(`SELECT count(*) FROM entities WHERE tenant = ?`),
    relations: one(`SELECT count(*) FROM relations WHERE tenant = ? AND invalidated_at IS NULL`),
    invalidatedRelations: one(`SELECT count(*) FROM relations WHERE tenant = ? AND invalidated_at IS NOT NULL`),
    mentions: one(`SELECT count(*) FROM entities e CROSS JOIN mentions x ON x.entity_rowid = e.rowid WHERE e.tenant = ?`),
    extractionFailures: countFailureRows(db, tenant),
  };
}
