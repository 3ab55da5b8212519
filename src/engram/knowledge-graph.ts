/**
 * `engram.graph`: the knowledge graph in the MCP reference memory server's shapes, over the
 * store's graph part. Names are identities (matched case-insensitively); relations are shown
 * by their entities' names; only live relations are shown (ended ones stay in the store).
 */
import { InvalidInputError, NotFoundError } from '../errors.js';
import type { Clock } from '../model/clock.js';
import { type Entity, entityKey, type Relation } from '../model/graph.js';
import type { IdGenerator } from '../model/ids.js';
import type { GraphStore } from '../store/store.js';
import type {
  GraphEntity,
  GraphEntityInput,
  GraphPageRequest,
  GraphRelation,
  GraphView,
  KnowledgeGraph,
  KnowledgeGraphPage,
} from '../tools/knowledge-graph.js';

/** Entities `search_nodes` returns at most. */
const MAX_SEARCH_NODES = 100;
/** Relations read per entity when showing the relations among a set of entities. */
const MAX_RELATIONS = 1000;
/** `read_graph`'s page size. @default 100 */
const DEFAULT_PAGE = 100;
const MAX_PAGE = 1000;

/** The graph of one tenant. */
export class EngramKnowledgeGraph implements KnowledgeGraph {
  constructor(
    private readonly parts: { store: GraphStore; tenant: string; clock: Clock; ids: IdGenerator; assertOpen: () => void },
  ) {}

  async createEntities(entities: readonly GraphEntityInput[]): Promise<GraphEntity[]> {
    const { store, tenant } = this.start();
    const names = entities.map((entity) => requireName(entity.name, 'entity name'));
    // As the reference server does, an entity whose name exists is left as it is, its type and
    // observations too (facts go in with add_observations): only new names are written, and only
    // they are returned. One extraction made becomes the user's, so it stays when no memory names it.
    const keys = new Set(names.map(entityKey));
    const existing = (await store.findEntities(tenant, names)).filter((entity) => keys.has(entityKey(entity.name)));
    const extracted = existing.filter((entity) => entity.origin === 'extracted');
    if (extracted.length > 0) {
      await store.upsertEntities(
        tenant,
        extracted.map(({ id, name, type }) => ({ id, name, type, origin: 'user' })),
        this.now(),
      );
    }
    const taken = new Set(existing.map((entity) => entityKey(entity.name)));
    const inputs = entities.flatMap((entity, i) => {
      const name = names[i] as string;
      if (taken.has(entityKey(name))) return [];
      taken.add(entityKey(name));
      return [
        {
          id: this.parts.ids(),
          name,
          type: requireName(entity.entityType, 'entityType'),
          observations: entity.observations ?? [],
        },
      ];
    });
    return inputs.length === 0 ? [] : (await store.upsertEntities(tenant, inputs, this.now())).map(toGraphEntity);
  }

  async createRelations(relations: readonly GraphRelation[]): Promise<GraphRelation[]> {
    const { store, tenant } = this.start();
    const byName = await this.entitiesByName(relations.flatMap((relation) => [relation.from, relation.to]));
    const inputs = relations.map((relation) => ({
      id: this.parts.ids(),
      from: requireEntity(byName, relation.from).id,
      to: requireEntity(byName, relation.to).id,
      type: requireName(relation.relationType, 'relationType'),
    }));
    const stored = await store.addRelations(tenant, inputs, this.now());
    const names = new Map([...byName.values()].map((entity) => [entity.id, entity.name]));
    // The store answers an identical live relation with the one it has: new ones keep the id given.
    return stored.filter((relation, i) => relation.id === inputs[i]?.id).map((relation) => toGraphRelation(relation, names));
  }

  async addObservations(
    observations: readonly { entityName: string; contents: readonly string[] }[],
  ): Promise<{ entityName: string; addedObservations: string[] }[]> {
    const { store, tenant } = this.start();
    const byName = await this.entitiesByName(observations.map((change) => change.entityName));
    const changes = observations.map((change) => ({
      entityId: requireEntity(byName, change.entityName).id,
      observations: change.contents.map((content) => requireName(content, 'observation')),
    }));
    const added = new Map((await store.addObservations(tenant, changes, this.now())).map((c) => [c.entityId, c.observations]));
    return observations.map((change, i) => ({
      entityName: requireEntity(byName, change.entityName).name,
      addedObservations: [...(added.get(changes[i]?.entityId ?? '') ?? [])],
    }));
  }

  async deleteEntities(entityNames: readonly string[]): Promise<string[]> {
    const { store, tenant } = this.start();
    const found = await store.findEntities(
      tenant,
      entityNames.map((name) => requireName(name, 'entity name')),
    );
    // By name only: an alias of another entity does not delete it.
    const keys = new Set(entityNames.map(entityKey));
    const named = found.filter((entity) => keys.has(entityKey(entity.name)));
    await store.deleteEntities(
      tenant,
      named.map((entity) => entity.id),
    );
    return named.map((entity) => entity.name);
  }

  async deleteObservations(deletions: readonly { entityName: string; observations: readonly string[] }[]): Promise<number> {
    const { store, tenant } = this.start();
    const byName = await this.entitiesByName(deletions.map((deletion) => deletion.entityName));
    const changes = deletions.flatMap((deletion) => {
      const entity = byName.get(entityKey(deletion.entityName));
      return entity ? [{ entityId: entity.id, observations: deletion.observations }] : [];
    });
    return store.removeObservations(tenant, changes, this.now());
  }

  async deleteRelations(relations: readonly GraphRelation[]): Promise<number> {
    const { store, tenant } = this.start();
    const byName = await this.entitiesByName(relations.flatMap((relation) => [relation.from, relation.to]));
    const wanted = new Set(
      relations.flatMap((relation) => {
        const from = byName.get(entityKey(relation.from));
        const to = byName.get(entityKey(relation.to));
        return from && to ? [`${from.id}\u0000${to.id}\u0000${relation.relationType}`] : [];
      }),
    );
    const fromIds = [...new Set([...byName.values()].map((entity) => entity.id))];
    const live = await store.listRelations(tenant, fromIds, { limit: MAX_RELATIONS });
    const ids = live.filter((r) => wanted.has(`${r.from}\u0000${r.to}\u0000${r.type}`)).map((r) => r.id);
    return store.deleteRelations(tenant, ids);
  }

  async readGraph(page: GraphPageRequest = {}): Promise<KnowledgeGraphPage> {
    const { store, tenant } = this.start();
    const offset = page.offset ?? 0;
    const limit = page.limit ?? DEFAULT_PAGE;
    if (!Number.isInteger(offset) || offset < 0)
      throw new InvalidInputError(`offset must be a whole number of at least 0 (got ${offset})`);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
      throw new InvalidInputError(`limit must be a whole number from 1 to ${MAX_PAGE} (got ${limit})`);
    }
    const result = await store.readGraph(tenant, { offset, limit });
    const names = await this.namesOf(result.relations, result.entities);
    const next = offset + result.entities.length;
    return {
      entities: result.entities.map(toGraphEntity),
      relations: result.relations.map((relation) => toGraphRelation(relation, names)),
      totalEntities: result.totalEntities,
      nextOffset: next < result.totalEntities && result.entities.length > 0 ? next : null,
    };
  }

  async searchNodes(query: string): Promise<GraphView> {
    const { store, tenant } = this.start();
    const entities = await store.searchEntities(tenant, requireName(query, 'query'), MAX_SEARCH_NODES);
    return this.viewOf(entities);
  }

  async openNodes(names: readonly string[]): Promise<GraphView> {
    const { store, tenant } = this.start();
    const keys = new Set(names.map(entityKey));
    const found = await store.findEntities(
      tenant,
      names.map((name) => requireName(name, 'entity name')),
    );
    return this.viewOf(found.filter((entity) => keys.has(entityKey(entity.name))));
  }

  /**
   * Entities and the live relations touching them (either end), as the reference server shows
   * them, so an agent can see a node's neighbours.
   */
  private async viewOf(entities: readonly Entity[]): Promise<GraphView> {
    const ids = [...new Set(entities.map((entity) => entity.id))];
    const relations =
      ids.length === 0 ? [] : await this.parts.store.listRelations(this.parts.tenant, ids, { limit: MAX_RELATIONS });
    const names = await this.namesOf(relations, entities);
    return { entities: entities.map(toGraphEntity), relations: relations.map((r) => toGraphRelation(r, names)) };
  }

  /** The entities named (by name or alias), keyed by the name as asked for (normalised). */
  private async entitiesByName(names: readonly string[]): Promise<Map<string, Entity>> {
    const asked = [...new Set(names.map((name) => requireName(name, 'entity name')))];
    const found = await this.parts.store.findEntities(this.parts.tenant, asked);
    const byName = new Map<string, Entity>();
    for (const name of asked) {
      const key = entityKey(name);
      const entity =
        found.find((candidate) => entityKey(candidate.name) === key) ??
        found.find((candidate) => candidate.aliases.some((alias) => entityKey(alias) === key));
      if (entity) byName.set(key, entity);
    }
    return byName;
  }

  /** Names of every entity these relations touch. */
  private async namesOf(relations: readonly Relation[], known: readonly Entity[]): Promise<Map<string, string>> {
    const names = new Map(known.map((entity) => [entity.id, entity.name]));
    const missing = [...new Set(relations.flatMap((relation) => [relation.from, relation.to]))].filter((id) => !names.has(id));
    for (const entity of await this.parts.store.getEntities(this.parts.tenant, missing)) names.set(entity.id, entity.name);
    return names;
  }

  private start(): { store: GraphStore; tenant: string } {
    this.parts.assertOpen();
    return { store: this.parts.store, tenant: this.parts.tenant };
  }

  private now(): string {
    return this.parts.clock.now().toISOString();
  }
}

/** An entity in the reference server's shape. */
export function toGraphEntity(entity: Entity): GraphEntity {
  return { name: entity.name, entityType: entity.type, observations: [...entity.observations] };
}

function toGraphRelation(relation: Relation, names: ReadonlyMap<string, string>): GraphRelation {
  return {
    from: names.get(relation.from) ?? relation.from,
    to: names.get(relation.to) ?? relation.to,
    relationType: relation.type,
  };
}

function requireName(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim().length === 0) throw new InvalidInputError(`${what} must be a non-empty string`);
  return value.trim();
}

function requireEntity(byName: ReadonlyMap<string, Entity>, name: string): Entity {
  const entity = byName.get(entityKey(name));
  if (!entity) throw new NotFoundError(`no entity named ${name}: create it first with create_entities`);
  return entity;
}

/** The graph entities memory `id` names, as extraction recorded them (strongest role first). */
export async function mentionedEntities(store: GraphStore, tenant: string, id: string): Promise<GraphEntity[]> {
  const entityIds = [...new Set((await store.listMentionsInMemories(tenant, [id])).map((mention) => mention.entityId))];
  const entities = new Map((await store.getEntities(tenant, entityIds)).map((entity) => [entity.id, entity]));
  return entityIds.flatMap((entityId) => {
    const entity = entities.get(entityId);
    return entity ? [toGraphEntity(entity)] : [];
  });
}
