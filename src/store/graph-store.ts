/**
 * The graph part of a Store: entities, the relations between them and the mentions that tie
 * memories to entities (see `model/graph.ts`). Every operation names its tenant; nothing crosses
 * tenants. Entities are identified by name within a tenant (matched with `entityKey`, so case
 * and spacing do not matter); ids, like memory ids, come from the caller.
 *
 * Lifetimes: purging a memory removes its mentions and clears `memoryId` on the relations it
 * sourced (the fact outlives its source unless a caller ends it); deleting an entity removes its
 * relations and mentions and leaves every memory alone. An entity extraction made (`origin`
 * `extracted`) is removed, with its ended relations, by the write that leaves nothing holding
 * it: no mention, no observation, no live relation (re-extraction, removing mentions, purging
 * memories, deleting or ending relations, removing observations). A user's entity stays.
 */
import type { Entity, EntityOrigin, EntityType, Mention, MentionRole, Relation } from '../model/graph.js';
import type { MemoryFilter } from './memory-filter.js';

/** An entity to create, or to merge into the stored entity of the same name. */
export interface EntityInput {
  /** The id of the entity if it is new; unused when one with this name exists. */
  id: string;
  name: string;
  /** Kept from the first write; a later write with another type does not change it. */
  type: EntityType;
  /** Added to the stored aliases (matched like names, duplicates dropped). @default [] */
  aliases?: readonly string[];
  /** Added to the stored observations (exact duplicates dropped). @default [] */
  observations?: readonly string[];
  /**
   * Who makes it. A new entity keeps it; `user` also makes a stored extracted entity the user's
   * (it is never turned back). @default 'user'
   */
  origin?: EntityOrigin;
}

/** Observations to add to or remove from one entity. */
export interface ObservationChange {
  entityId: string;
  observations: readonly string[];
}

/** A relation to add between two stored entities. */
export interface RelationInput {
  /** The id of the relation if it is new; unused when an identical live relation exists. */
  id: string;
  /** Subject entity id. */
  from: string;
  /** Object entity id. */
  to: string;
  type: string;
  /** The memory it came from. @default null */
  memoryId?: string | null;
  /** When the fact started to hold. @default null */
  validFrom?: string | null;
}

/** What extraction found in one memory, with entities named rather than identified. */
export interface GraphExtraction {
  memoryId: string;
  /** Upserted as `upsertEntities` does, as `extracted` entities. */
  entities: readonly EntityInput[];
  /** The memory's mentions, by entity name or alias (of `entities` or already stored). */
  mentions: readonly { name: string; role: MentionRole }[];
  /** Relations the memory states, by entity name or alias; their source is this memory. */
  relations: readonly { id: string; from: string; to: string; type: string; validFrom?: string | null }[];
}

/** A memory whose graph extraction failed: it is stored, its graph is not. */
export interface ExtractionFailure {
  memoryId: string;
  /** What went wrong, one line. */
  error: string;
}

/** Which relations to list. */
export interface RelationListOptions {
  /** Include relations that were ended. @default false */
  includeInvalidated?: boolean;
  /** At most this many, newest first. @default no limit */
  limit?: number;
}

/** How many mentions of each entity to read. */
export interface MentionQuery {
  /** At most this many per entity, newest memory first. */
  limitPerEntity: number;
  /**
   * Look at only the newest this-many mentions of each entity, before the filter: bounds the cost
   * of an entity named in very many memories when the filter admits few of them (recall sets it).
   * @default no bound
   */
  scanPerEntity?: number;
}

/** One page of a tenant's whole graph. */
export interface GraphPage {
  /** Entities in creation order, from `offset`. */
  entities: Entity[];
  /** The relations whose `from` entity is on this page, so every relation appears on exactly one page. */
  relations: Relation[];
  /** How many entities the tenant has in all. */
  totalEntities: number;
}

/** One tenant's graph, counted. */
export interface GraphCounts {
  entities: number;
  /** Relations that still hold. */
  relations: number;
  invalidatedRelations: number;
  mentions: number;
  /** Memories whose graph extraction failed since it last succeeded for them (`engram reindex` retries them). */
  extractionFailures: number;
}

/** Entities, relations and mentions, per tenant. */
export interface GraphStore {
  /**
   * Creates each entity, or merges its aliases and observations into the stored entity with the
   * same name (that entity keeps its id, spelling and type). Returns the stored entities in the
   * order given; inputs naming the same entity return it once per input.
   */
  upsertEntities(tenant: string, entities: readonly EntityInput[], at: string): Promise<Entity[]>;
  /** The entities with these ids, in the order asked for; unknown ids are left out. */
  getEntities(tenant: string, ids: readonly string[]): Promise<Entity[]>;
  /**
   * The entities whose name or an alias matches one of `names` (case-insensitively, see
   * `entityKey`): for each name in order, the entity of that name, then those with it as an alias;
   * each entity once.
   */
  findEntities(tenant: string, names: readonly string[]): Promise<Entity[]>;
  /**
   * For each of `names` in order, what `findEntities` finds for that name alone (the entity of
   * that name, then those with it as an alias); in one read, for a caller that keeps each name's
   * answer (the read layer, store/kept/).
   */
  findEntitiesByName(tenant: string, names: readonly string[]): Promise<Entity[][]>;
  /**
   * Entities whose name, type, aliases or observations contain every word of `query`
   * (case-insensitively), name matches first; for the MCP `search_nodes` tool. It reads every
   * entity of the tenant, so it is not for recall's hot path (use `findEntities`).
   */
  searchEntities(tenant: string, query: string, limit: number): Promise<Entity[]>;
  /** Deletes the entities with their relations and mentions; memories stay. Returns how many were deleted. */
  deleteEntities(tenant: string, ids: readonly string[]): Promise<number>;
  /** Appends observations an entity lacks; returns, per known entity, the ones actually added. */
  addObservations(tenant: string, changes: readonly ObservationChange[], at: string): Promise<ObservationChange[]>;
  /** Removes these observations where present. Returns how many were removed. */
  removeObservations(tenant: string, changes: readonly ObservationChange[], at: string): Promise<number>;
  /**
   * Adds relations between stored entities; an identical live relation (same from, to and type)
   * is returned instead of a duplicate. Throws `not_found` for an unknown entity or memory.
   */
  addRelations(tenant: string, relations: readonly RelationInput[], at: string): Promise<Relation[]>;
  /** The relations from or to any of these entities, newest first. */
  listRelations(tenant: string, entityIds: readonly string[], options?: RelationListOptions): Promise<Relation[]>;
  /** Deletes relations for good. Returns how many were deleted. */
  deleteRelations(tenant: string, ids: readonly string[]): Promise<number>;
  /**
   * Ends the live relations these memories sourced (a superseded fact ends its relation, which
   * stays listed with `includeInvalidated`). Returns how many were ended.
   */
  invalidateRelations(tenant: string, memoryIds: readonly string[], at: string): Promise<number>;
  /**
   * Records what extraction found, one memory at a time, all in one transaction: upserts the
   * entities, replaces the memory's mentions, and replaces the relations it sourced (an unchanged
   * relation keeps its id), and clears a recorded extraction failure of the memory. Memories not
   * stored (or purged meanwhile) are skipped; a name that matches no entity is `invalid_input`.
   * Returns how many memories were recorded.
   */
  recordExtractions(tenant: string, extractions: readonly GraphExtraction[], at: string): Promise<number>;
  /**
   * Records that extraction failed for these memories (replacing an earlier failure of the same
   * memory); memories not stored are skipped. Returns how many were recorded.
   */
  recordExtractionFailures(tenant: string, failures: readonly ExtractionFailure[], at: string): Promise<number>;
  /** Removes every mention by these memories (forgetting them), and their recorded extraction failures. Returns how many mentions were removed. */
  removeMentions(tenant: string, memoryIds: readonly string[]): Promise<number>;
  /**
   * The mentions of these entities by memories `filter` admits (live ones by default), entity by
   * entity in the order asked for, newest memory first; for graph-aware recall.
   */
  listMentionsOfEntities(filter: MemoryFilter, entityIds: readonly string[], query: MentionQuery): Promise<Mention[]>;
  /** The mentions made by these memories, in the order of the memories asked for. */
  listMentionsInMemories(tenant: string, memoryIds: readonly string[]): Promise<Mention[]>;
  /** A page of the tenant's entities with the relations leaving them; for the MCP `read_graph` tool. */
  readGraph(tenant: string, page: { offset?: number; limit: number; includeInvalidated?: boolean }): Promise<GraphPage>;
  /** The tenant's entities, relations and mentions, counted (for statistics). */
  countGraph(tenant: string): Promise<GraphCounts>;
}
