/**
 * `/v1/graph`: the knowledge graph over HTTP, one route per tool of the MCP reference memory
 * server. Each body is that tool's arguments (`GRAPH_REQUEST_SCHEMAS`) and each answer is what
 * the tool answers, because the route runs the tool itself: HTTP, MCP and the library's tools
 * cannot drift apart. Deletions are `POST …/delete` since they carry a list in their body.
 */
import type { z } from 'zod';

import { GRAPH_REQUEST_SCHEMAS } from '../../../entries/model.js';
import { createGraphTools, type GraphToolName } from '../../../entries/tools.js';
import type { Engram } from '../../../index.js';
import { type AnyApiRoute, defineRoute } from '../api-route.js';
import { ReadGraphQuery } from '../request-schemas.js';
import {
  GraphCountedDeleteResponse,
  GraphEntitiesResponse,
  GraphEntityDeleteResponse,
  GraphObservationsResponse,
  GraphPageResponse,
  GraphRelationsResponse,
  GraphViewResponse,
} from '../response-schemas.js';

/** Runs the graph tool `name` of the request's tenant. */
async function runGraphTool(engram: Engram, name: GraphToolName, args: unknown): Promise<unknown> {
  const [tool] = createGraphTools({ engram, only: [name] });
  return tool?.execute(args);
}

/** A `POST` route whose body is the arguments of the tool `name`. */
function toolRoute(name: GraphToolName, path: string, summary: string, response: z.ZodType): AnyApiRoute {
  return defineRoute({
    method: 'post',
    path,
    tag: 'graph',
    summary,
    description: `The \`${name}\` tool of the MCP reference memory server: the same arguments, the same answer.`,
    body: GRAPH_REQUEST_SCHEMAS[name],
    response,
    handle: ({ engram, body }) => runGraphTool(engram, name, body),
  });
}

export const GRAPH_ROUTES: readonly AnyApiRoute[] = [
  defineRoute({
    method: 'get',
    path: '/v1/graph',
    tag: 'graph',
    summary: 'One page of the knowledge graph: entities in creation order, with the relations from them',
    description: 'The `read_graph` tool, paged: follow `nextOffset` until it is null.',
    query: ReadGraphQuery,
    response: GraphPageResponse,
    handle: ({ engram, query }) => runGraphTool(engram, 'read_graph', query),
  }),
  toolRoute(
    'create_entities',
    '/v1/graph/entities',
    'Create entities; a name already in the graph is ignored, its observations too (add them with /v1/graph/observations)',
    GraphEntitiesResponse,
  ),
  toolRoute(
    'delete_entities',
    '/v1/graph/entities/delete',
    'Delete entities by name, with their relations; `notFound` lists the names not in the graph',
    GraphEntityDeleteResponse,
  ),
  toolRoute(
    'create_relations',
    '/v1/graph/relations',
    'Relate existing entities (from, to, relationType)',
    GraphRelationsResponse,
  ),
  toolRoute('delete_relations', '/v1/graph/relations/delete', 'Delete relations', GraphCountedDeleteResponse),
  toolRoute(
    'add_observations',
    '/v1/graph/observations',
    'Add observations (facts) to existing entities',
    GraphObservationsResponse,
  ),
  toolRoute(
    'delete_observations',
    '/v1/graph/observations/delete',
    'Remove observations from entities',
    GraphCountedDeleteResponse,
  ),
  toolRoute(
    'search_nodes',
    '/v1/graph/search',
    'Find entities whose name, type or observations hold every word of a query',
    GraphViewResponse,
  ),
  toolRoute('open_nodes', '/v1/graph/open', 'Entities by name, with the relations touching them', GraphViewResponse),
];
