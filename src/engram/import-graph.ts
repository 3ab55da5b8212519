/**
 * The knowledge-graph lines of an import (the MCP reference memory server's `memory.jsonl`),
 * written through the graph's own API (`engram.graph`, the nine tools' operations): planned and
 * checked against the stored graph first — a relation must join entities of the file or of the
 * graph — so a bad line refuses the import before anything is written; then entities, their
 * observations and the relations go in, and `read_graph` shows what the file held.
 */
import { entityKey } from '../model/graph.js';
import type { GraphEntityInput, GraphRelation, KnowledgeGraph } from '../tools/knowledge-graph.js';
import { type EntityLine, importError, type RelationLine } from './import-records.js';

/** The graph writes of one import. */
export interface GraphImportPlan {
  /** Entities new to the graph, lines naming the same entity merged (names match ignoring case). */
  create: GraphEntityInput[];
  /** Observations for entities the graph has already (it keeps their type). */
  observe: { entityName: string; contents: string[] }[];
  relations: GraphRelation[];
}

/** Plans the writes; refuses a relation whose ends are neither in the file nor in the graph. */
export async function planGraphImport(
  graph: KnowledgeGraph,
  entities: readonly EntityLine[],
  relations: readonly RelationLine[],
): Promise<GraphImportPlan> {
  const merged = new Map<string, GraphEntityInput & { observations: string[] }>();
  for (const line of entities) {
    const entity = merged.get(entityKey(line.name));
    if (entity) entity.observations.push(...line.observations.filter((text) => !entity.observations.includes(text)));
    else
      merged.set(entityKey(line.name), {
        name: line.name,
        entityType: line.entityType,
        observations: [...new Set(line.observations)],
      });
  }
  const endpoints = relations.flatMap((relation) => [relation.from, relation.to]);
  const asked = [...new Set([...[...merged.values()].map((entity) => entity.name), ...endpoints])];
  const stored = asked.length === 0 ? new Set<string>() : await storedNames(graph, asked);
  for (const relation of relations) {
    for (const end of [relation.from, relation.to]) {
      if (merged.has(entityKey(end)) || stored.has(entityKey(end))) continue;
      throw importError(
        relation.where,
        `the relation ${relation.from} ${relation.relationType} ${relation.to} names ${end}, which is an entity neither of this file nor of the graph`,
        `add a line {"type": "entity", "name": ${JSON.stringify(end)}, "entityType": "…", "observations": []} or remove the relation`,
      );
    }
  }
  const all = [...merged.values()];
  return {
    create: all.filter((entity) => !stored.has(entityKey(entity.name))),
    observe: all
      .filter((entity) => stored.has(entityKey(entity.name)) && entity.observations.length > 0)
      .map((entity) => ({ entityName: entity.name, contents: entity.observations })),
    relations: relations.map(({ from, to, relationType }) => ({ from, to, relationType })),
  };
}

/** Writes a plan; returns how many entities and relations were new. */
export async function writeGraphImport(
  graph: KnowledgeGraph,
  plan: GraphImportPlan,
): Promise<{ newEntities: number; newRelations: number }> {
  const created = plan.create.length > 0 ? await graph.createEntities(plan.create) : [];
  if (plan.observe.length > 0) await graph.addObservations(plan.observe);
  const related = plan.relations.length > 0 ? await graph.createRelations(plan.relations) : [];
  return { newEntities: created.length, newRelations: related.length };
}

/** The keys of those of `names` the graph holds an entity by. */
async function storedNames(graph: KnowledgeGraph, names: readonly string[]): Promise<Set<string>> {
  const view = await graph.openNodes(names);
  return new Set(view.entities.map((entity) => entityKey(entity.name)));
}
