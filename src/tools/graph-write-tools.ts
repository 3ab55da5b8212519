/**
 * The graph tools that add: `create_entities`, `create_relations`, `add_observations`, named
 * and shaped as in the MCP reference memory server, with its results (`{ entities }`,
 * `{ relations }`, `{ results }`: only what was new). As there, `create_entities` ignores a name
 * already in the graph, observations and all (facts go to it with `add_observations`); an
 * existing entity extraction made becomes the user's (kept when no memory names it). A relation
 * or observation naming an entity that does not exist fails the whole call, and nothing is written.
 */
import { GRAPH_REQUEST_SCHEMAS } from './graph-schemas.js';
import type { GraphEntity, GraphRelation } from './knowledge-graph.js';
import { defineTool } from './tool.js';

export const createEntitiesTool = defineTool({
  name: 'create_entities',
  description:
    'Add new entities to the knowledge graph: people, organizations, projects, places or anything else worth knowing about, ' +
    'each with a type and optional facts (observations). A name is an identity: an entity whose name is already in the ' +
    'graph (made earlier, or found in stored memories) is ignored entirely, its type and observations included; to add ' +
    'facts to it, call add_observations. Returns only the entities that were created.',
  schema: GRAPH_REQUEST_SCHEMAS.create_entities,
  async run(args, context): Promise<{ entities: GraphEntity[] }> {
    return { entities: await context.engram.graph.createEntities(args.entities) };
  },
});

export const createRelationsTool = defineTool({
  name: 'create_relations',
  description:
    'Connect entities of the knowledge graph with directed, typed relations in active voice ' +
    '(from "Alice", relationType "works_at", to "Acme"). Both entities must exist: create them first with ' +
    'create_entities. Returns the relations that were new.',
  schema: GRAPH_REQUEST_SCHEMAS.create_relations,
  async run(args, context): Promise<{ relations: GraphRelation[] }> {
    return { relations: await context.engram.graph.createRelations(args.relations) };
  },
});

export const addObservationsTool = defineTool({
  name: 'add_observations',
  description:
    'Record new facts (observations) about entities already in the knowledge graph, one short sentence each. ' +
    'Facts the entity already has are not repeated. Returns, per entity, the facts that were added.',
  schema: GRAPH_REQUEST_SCHEMAS.add_observations,
  async run(args, context): Promise<{ results: { entityName: string; addedObservations: string[] }[] }> {
    return { results: await context.engram.graph.addObservations(args.observations) };
  },
});
