/**
 * The knowledge graph as agents and people use it, in the shapes of the MCP reference memory
 * server (entities by name with an `entityType` and observations; relations `from` → `to` by
 * name with a `relationType`), so an agent set up for that server works against Engram
 * unchanged. Declared here, below the tools that expose it; the facade implements it over the
 * store's graph part (`engram.graph`).
 */

/** A node: its name is its identity (matched case-insensitively). */
export interface GraphEntity {
  name: string;
  entityType: string;
  observations: string[];
}

/** A directed edge between two named entities, in active voice (`works_at`). */
export interface GraphRelation {
  from: string;
  to: string;
  relationType: string;
}

/** A new entity; observations are optional. */
export interface GraphEntityInput {
  name: string;
  entityType: string;
  observations?: readonly string[] | undefined;
}

/** Entities and the live relations touching them. */
export interface GraphView {
  entities: GraphEntity[];
  relations: GraphRelation[];
}

/** One page of the whole graph: entities in creation order, each relation on its `from` entity's page. */
export interface KnowledgeGraphPage extends GraphView {
  /** Entities in the whole graph. */
  totalEntities: number;
  /** The offset of the next page, or null on the last one. */
  nextOffset: number | null;
}

/** How much of the graph `readGraph` returns. */
export interface GraphPageRequest {
  /** @default 0 */
  offset?: number | undefined;
  /** @default 100 */
  limit?: number | undefined;
}

/** The graph operations, one per tool of the MCP reference memory server. */
export interface KnowledgeGraph {
  /**
   * Creates the entities whose names are new; returns those. An existing name is ignored, its
   * observations too (the MCP reference memory server's rule; `addObservations` adds facts).
   */
  createEntities(entities: readonly GraphEntityInput[]): Promise<GraphEntity[]>;
  /** Creates relations between existing entities; returns the new ones (duplicates are skipped). */
  createRelations(relations: readonly GraphRelation[]): Promise<GraphRelation[]>;
  /** Adds observations to existing entities; returns what was new per entity. Unknown names are refused. */
  addObservations(
    observations: readonly { entityName: string; contents: readonly string[] }[],
  ): Promise<{ entityName: string; addedObservations: string[] }[]>;
  /**
   * Deletes entities with their relations and mentions; memories stay. Unknown names are ignored;
   * returns the names of the entities deleted, as stored.
   */
  deleteEntities(entityNames: readonly string[]): Promise<string[]>;
  /** Removes observations where present; returns how many were removed. */
  deleteObservations(deletions: readonly { entityName: string; observations: readonly string[] }[]): Promise<number>;
  /** Deletes these relations where present; returns how many were deleted. */
  deleteRelations(relations: readonly GraphRelation[]): Promise<number>;
  /** A page of the whole graph (the reference server returns it all at once; Engram pages). */
  readGraph(page?: GraphPageRequest): Promise<KnowledgeGraphPage>;
  /** Entities whose name, type, aliases or observations hold every word of `query`, and the relations touching them. */
  searchNodes(query: string): Promise<GraphView>;
  /** These entities (unknown names skipped) and the relations touching them. */
  openNodes(names: readonly string[]): Promise<GraphView>;
}
