/**
 * The graph tools that remove: `delete_entities`, `delete_observations`, `delete_relations`,
 * as in the MCP reference memory server. Like there, removing something that is not in the
 * graph is not an error, and the answer is a short confirmation (`{ success, message }`) that
 * says what was removed: `delete_entities` which names it deleted and which it did not find, the
 * other two how many observations or relations (`removed`), so removing something twice does not
 * claim twice to have removed it.
 * Deleting an entity never deletes a memory: only the graph forgets it.
 */
import { entityKey } from '../model/graph.js';
import { GRAPH_REQUEST_SCHEMAS } from './graph-schemas.js';
import { defineTool } from './tool.js';

/** What a delete answers. */
export interface GraphDeleteResult {
  success: true;
  message: string;
}

/** What `delete_observations` and `delete_relations` answer: how many were removed. */
export interface CountedDeleteResult extends GraphDeleteResult {
  removed: number;
}

/** What `delete_entities` answers: the names deleted (as stored) and the names not in the graph. */
export interface EntityDeleteResult extends GraphDeleteResult {
  deleted: string[];
  notFound: string[];
}

export const deleteEntitiesTool = defineTool({
  name: 'delete_entities',
  description:
    'Remove entities from the knowledge graph by name, together with every relation to or from them. ' +
    'Names not in the graph are ignored (the answer lists them under notFound). Memories that mention the entities are kept.',
  schema: GRAPH_REQUEST_SCHEMAS.delete_entities,
  async run(args, context): Promise<EntityDeleteResult> {
    const deleted = await context.engram.graph.deleteEntities(args.entityNames);
    const gone = new Set(deleted.map(entityKey));
    const asked = new Map(args.entityNames.map((name) => [entityKey(name), name.trim()]));
    const notFound = [...asked].filter(([key]) => !gone.has(key)).map(([, name]) => name);
    return { success: true, message: entityDeleteMessage(deleted, notFound), deleted, notFound };
  },
});

function entityDeleteMessage(deleted: readonly string[], notFound: readonly string[]): string {
  const missing = notFound.length === 1 ? `No entity named ${notFound[0]}` : `No entities named ${notFound.join(', ')}`;
  if (deleted.length === 0)
    return `${missing} in the graph: nothing was removed (search_nodes or read_graph lists the entities).`;
  const removed = `Removed ${deleted.join(', ')} and ${deleted.length === 1 ? 'its' : 'their'} relations from the graph.`;
  return notFound.length === 0
    ? removed
    : `${removed} ${missing} in the graph: nothing to remove for ${notFound.length === 1 ? 'it' : 'them'}.`;
}

export const deleteObservationsTool = defineTool({
  name: 'delete_observations',
  description:
    'Remove facts (observations) from entities of the knowledge graph, given exactly as stored. ' +
    'Facts or entities not in the graph are ignored.',
  schema: GRAPH_REQUEST_SCHEMAS.delete_observations,
  async run(args, context): Promise<CountedDeleteResult> {
    const removed = await context.engram.graph.deleteObservations(args.deletions);
    return counted(removed, ['observation', 'observations'], 'they must match as stored: open_nodes shows them');
  },
});

export const deleteRelationsTool = defineTool({
  name: 'delete_relations',
  description:
    'Remove relations from the knowledge graph, each given as from, to and relationType. ' +
    'Relations not in the graph are ignored; the entities stay.',
  schema: GRAPH_REQUEST_SCHEMAS.delete_relations,
  async run(args, context): Promise<CountedDeleteResult> {
    const removed = await context.engram.graph.deleteRelations(args.relations);
    return counted(removed, ['relation', 'relations'], "open_nodes shows an entity's relations");
  },
});

/** The answer of a delete that counts what it removed; `hint` says, when none was there, where to look. */
function counted(removed: number, [one, many]: readonly [string, string], hint: string): CountedDeleteResult {
  const message =
    removed > 0
      ? `Removed ${removed} ${removed === 1 ? one : many} from the graph.`
      : `None of these ${many} is in the graph (${hint}): nothing was removed.`;
  return { success: true, message, removed };
}
