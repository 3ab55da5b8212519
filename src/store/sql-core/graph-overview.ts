/**
 * Looking at a tenant's whole graph, written once for both databases: a page of entities with
 * the relations leaving them (for the MCP `read_graph` tool), and the counts for statistics.
 */
import type { GraphCounts, GraphPage } from '../graph-store.js';
import { relationsFrom } from './graph-relations.js';
import { type EntityRow, rowToEntity } from './graph-rows.js';
import { all, get, type Program } from './session.js';
import { JOIN_IN_ORDER, sql } from './sql.js';

/** Entities in creation order from `offset`, with the relations whose `from` is among them. */
export function* readGraphPage(
  tenant: string,
  { offset = 0, limit, includeInvalidated = false }: { offset?: number; limit: number; includeInvalidated?: boolean },
): Program<GraphPage> {
  const total = (yield* get<{ n: number }>(sql`SELECT count(*) AS n FROM entities WHERE tenant = ${tenant}`)) as { n: number };
  const found =
    limit <= 0
      ? []
      : yield* all<EntityRow>(
          sql`SELECT * FROM entities WHERE tenant = ${tenant} ORDER BY rowid LIMIT ${limit} OFFSET ${Math.max(0, offset)}`,
        );
  return {
    entities: found.map(rowToEntity),
    relations: yield* relationsFrom(
      found.map((row) => row.rowid),
      includeInvalidated,
    ),
    totalEntities: total.n,
  };
}

/** The tenant's entities, relations (live and ended), mentions and failed extractions, counted. */
export function* countGraphRows(tenant: string): Program<GraphCounts> {
  const row = (yield* get<GraphCounts>(
    sql`SELECT (SELECT count(*) FROM entities WHERE tenant = ${tenant}) AS entities,
        (SELECT count(*) FROM relations WHERE tenant = ${tenant} AND invalidated_at IS NULL) AS relations,
        (SELECT count(*) FROM relations WHERE tenant = ${tenant} AND invalidated_at IS NOT NULL) AS "invalidatedRelations",
        (SELECT count(*) FROM entities e ${JOIN_IN_ORDER} mentions x ON x.entity_rowid = e.rowid WHERE e.tenant = ${tenant})
          AS mentions,
        (SELECT count(*) FROM extraction_failures f ${JOIN_IN_ORDER} memories m ON m.rowid = f.memory_rowid
          WHERE m.tenant = ${tenant}) AS "extractionFailures"`,
  )) as GraphCounts;
  return {
    entities: row.entities,
    relations: row.relations,
    invalidatedRelations: row.invalidatedRelations,
    mentions: row.mentions,
    extractionFailures: row.extractionFailures,
  };
}
