/**
 * The graph tools that read: `read_graph`, `search_nodes`, `open_nodes`, as in the MCP
 * reference memory server (`{ entities, relations }`), except that `read_graph` answers one
 * page at a time — a whole graph can be far larger than a context window — with the total and
 * the offset of the next page.
 */
import { GRAPH_REQUEST_SCHEMAS, GRAPH_TOOL_LIMITS } from './graph-schemas.js';
import type { GraphView, KnowledgeGraphPage } from './knowledge-graph.js';
import { defineTool } from './tool.js';

export const readGraphTool = defineTool({
  name: 'read_graph',
  description:
    'Read the knowledge graph one page at a time: entities in the order they were created, with their facts and ' +
    `the relations from them. Pages hold ${GRAPH_TOOL_LIMITS.defaultPage} entities unless you set limit; when ` +
    'nextOffset is not null, call again with offset = nextOffset for the next page. To find something specific, ' +
    'search_nodes or open_nodes is cheaper.',
  schema: GRAPH_REQUEST_SCHEMAS.read_graph,
  async run(args, context): Promise<KnowledgeGraphPage> {
    return context.engram.graph.readGraph({ offset: args.offset, limit: args.limit });
  },
});

export const searchNodesTool = defineTool({
  name: 'search_nodes',
  description:
    'Find entities of the knowledge graph whose name, type or facts contain every word of the query (ignoring case), ' +
    'with the relations touching them.',
  schema: GRAPH_REQUEST_SCHEMAS.search_nodes,
  async run(args, context): Promise<GraphView> {
    return context.engram.graph.searchNodes(args.query);
  },
});

export const openNodesTool = defineTool({
  name: 'open_nodes',
  description:
    'Look up entities of the knowledge graph by name (ignoring case), with their facts and the relations touching them. ' +
    'Names not in the graph are left out of the answer.',
  schema: GRAPH_REQUEST_SCHEMAS.open_nodes,
  async run(args, context): Promise<GraphView> {
    return context.engram.graph.openNodes(args.names);
  },
});
