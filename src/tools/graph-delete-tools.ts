/**
 * The graph tools that remove: `delete_entities`, `delete_observations`, `delete_relations`,
 * as in the MCP reference memory server. Like there, removing something that is not in the
 * graph is not an error, and the answer is a short confirmation (`{ success, message }`).
 * Deleting an entity never deletes a memory: only the graph forgets it.
 */
import { GRAPH_REQUEST_SCHEMAS } from './graph-schemas.js';
import { defineTool } from './tool.js';

/** What a delete answers. */
export interface GraphDeleteResult {
  success: true;
  message: string;
}

export const deleteEntitiesTool = defineTool({
  name: 'delete_entities',
  description:
    'Remove entities from the knowledge graph by name, together with every relation to or from them. ' +
    'Names not in the graph are ignored. Memories that mention the entities are kept.',
  schema: GRAPH_REQUEST_SCHEMAS.delete_entities,
  async run(args, context): Promise<GraphDeleteResult> {
    await context.engram.graph.deleteEntities(args.entityNames);
    return { success: true, message: 'Entities and their relations removed from the graph.' };
  },
});

export const deleteObservationsTool = defineTool({
  name: 'delete_observations',
  description:
    'Remove facts (observations) from entities of the knowledge graph, given exactly as stored. ' +
    'Facts or entities not in the graph are ignored.',
  schema: GRAPH_REQUEST_SCHEMAS.delete_observations,
  async run(args, context): Promise<GraphDeleteResult> {
    await context.engram.graph.deleteObservations(args.deletions);
    return { success: true, message: 'Observations removed from the graph.' };
  },
});

export const deleteRelationsTool = defineTool({
  name: 'delete_relations',
  description:
    'Remove relations from the knowledge graph, each given as from, to and relationType. ' +
    'Relations not in the graph are ignored; the entities stay.',
  schema: GRAPH_REQUEST_SCHEMAS.delete_relations,
  async run(args, context): Promise<GraphDeleteResult> {
    await context.engram.graph.deleteRelations(args.relations);
    return { success: true, message: 'Relations removed from the graph.' };
  },
});
