/**
 * The PostgreSQL side of looking at a tenant's whole graph: a page of entities with the relations
 * leaving them (for the MCP `read_graph` tool), and the counts for statistics.
 */
import type { GraphCounts, GraphPage } from '../graph-store.js';
import { type EntityRow, rowToEntity } from '../sqlite/graph-rows.js';
import type { Queryable } from './connection.js';
import { relationsFrom } from './graph-relations.js';

/** Entities in creation order from `offset`, with the relations whose `from` is among them. */
export async function readGraphPage(
  db: Queryable,
  tenant: string,
  { offset = 0, limit, includeInvalidated = false }: { offset?: number; limit: number; includeInvalidated?: boolean },
): Promise<GraphPage> {
  const total = await db.query(`SELECT count(*) AS n FROM entities WHERE tenant = $1`, [tenant]);
  const rows =
    limit <= 0
      ? []
      : ((
          await db.query(`SELECT * FROM entities WHERE tenant = $1 ORDER BY rowid LIMIT $2 OFFSET $3`, [
            tenant,
            limit,
            Math.max(0, offset),
          ])
        ).rows as EntityRow[]);
  return {
    entities: rows.map(rowToEntity),
    relations: await relationsFrom(
      db,
      rows.map((row) => row.rowid),
      includeInvalidated,
    ),
    totalEntities: (total.rows[0] as { n: number }).n,
  };
}

export async function countGraphRows(db: Queryable, tenant: string): Promise<GraphCounts> {
  const result = await db.query(
    `SELECT (SELECT count(*) FROM entities WHERE tenant = $1) AS entities,
       (SELECT count(*) FROM relations WHERE tenant = $1 AND invalidated_at IS NULL) AS relations,
       (SELECT count(*) FROM relations WHERE tenant = $1 AND invalidated_at IS NOT NULL) AS invalidated,
       (SELECT count(*) FROM entities e JOIN mentions x ON x.entity_rowid = e.rowid WHERE e.tenant = $1) AS mentions,
       (SELECT count(*) FROM extraction_failures f JOIN memories m ON m.rowid = f.memory_rowid WHERE m.tenant = $1) AS failures`,
    [tenant],
  );
  const row = result.rows[0] as { entities: number; relations: number; invalidated: number; mentions: number; failures: number };
  return {
    entities: row.entities,
    relations: row.relations,
    invalidatedRelations: row.invalidated,
    mentions: row.mentions,
    extractionFailures: row.failures,
  };
}
