/**
 * The knowledge graph (`engram.graph`, the calls behind `/v1/graph`): a page of entities or the
 * ones matching a search, and one entity with its neighbourhood — the entities one relation
 * away — and the memories that search reaches through it.
 */
import type { GraphEntity, GraphRelation } from '../../../entries/tools.js';
import { type Engram, NotFoundError, type SearchHit } from '../../../index.js';

/** Entities per page of the graph. */
export const ENTITIES_PAGE = 100;
/** Neighbours drawn around an entity at most; the rest are listed. */
export const MAX_DRAWN_NEIGHBOURS = 24;
/** Memories less relevant to the entity's name than this are not listed under it. */
const MIN_RELEVANCE = 0.2;

/** The graph page: a page of entities, or those a search finds. */
export interface GraphListView {
  entities: GraphEntity[];
  relations: GraphRelation[];
  totalEntities: number | null;
  offset: number;
  nextOffset: number | null;
  query: string | null;
}

/** A page of entities with their relations, or every entity matching `q`. */
export async function loadGraph(
  engram: Engram,
  query: { q?: string | undefined; offset?: number | undefined },
): Promise<GraphListView> {
  const q = query.q?.trim() || null;
  const offset = query.offset ?? 0;
  if (q) {
    const view = await engram.graph.searchNodes(q);
    return { ...view, totalEntities: null, offset: 0, nextOffset: null, query: q } satisfies GraphListView;
  }
  const page = await engram.graph.readGraph({ offset, limit: ENTITIES_PAGE });
  return {
    entities: page.entities,
    relations: page.relations,
    totalEntities: page.totalEntities,
    offset,
    nextOffset: page.nextOffset,
    query: null,
  } satisfies GraphListView;
}

/** An entity one relation away, and the relations between the two. */
export interface Neighbour {
  entity: GraphEntity | null;
  name: string;
  /** e.g. `works_at →` (from the entity) or `← knows` (towards it). */
  links: { type: string; outgoing: boolean }[];
}

/** The relations to a neighbour in words: `works_at →, ← knows`. */
export function describeLinks(neighbour: Neighbour): string {
  return neighbour.links.map((link) => (link.outgoing ? `${link.type} →` : `← ${link.type}`)).join(', ');
}

/** One entity's page. */
export interface EntityView {
  entity: GraphEntity;
  neighbours: Neighbour[];
  /** Memories a search for the entity's name finds, with the graph path that reached each. */
  memories: SearchHit[];
}

/** The entity named `name` with its neighbourhood and the memories that reach it; a 404 when none. */
export async function loadEntity(engram: Engram, name: string): Promise<EntityView> {
  const view = await engram.graph.openNodes([name]);
  const entity = view.entities[0];
  if (!entity) throw new NotFoundError(`no entity named ${name.slice(0, 100)} in the graph`);
  const key = entity.name.toLowerCase();
  const byName = new Map<string, Neighbour>();
  for (const relation of view.relations) {
    const outgoing = relation.from.toLowerCase() === key;
    const other = outgoing ? relation.to : relation.from;
    if (other.toLowerCase() === key && relation.from.toLowerCase() === relation.to.toLowerCase()) continue;
    const neighbour = byName.get(other.toLowerCase()) ?? { entity: null, name: other, links: [] };
    neighbour.links.push({ type: relation.relationType, outgoing });
    byName.set(other.toLowerCase(), neighbour);
  }
  const neighbours = [...byName.values()];
  const [opened, memories] = await Promise.all([
    neighbours.length > 0 ? engram.graph.openNodes(neighbours.map((neighbour) => neighbour.name)) : Promise.resolve(null),
    engram.search({ query: entity.name, limit: 10, minRelevance: MIN_RELEVANCE, recordRetrieval: false }),
  ]);
  for (const found of opened?.entities ?? []) {
    const neighbour = byName.get(found.name.toLowerCase());
    if (neighbour) neighbour.entity = found;
  }
  return { entity, neighbours, memories };
}
