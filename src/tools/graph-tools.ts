/**
 * The knowledge-graph tools, bound to an engine: the MCP reference memory server's nine tools
 * with the same names and argument shapes, so an agent configured for that server works
 * against Engram unchanged. Kept apart from the memory tools (`createMemoryTools`), whose list
 * is its own contract; every provider exporter (`toMcpTools`, `toOpenAiTools`, …) takes either
 * list, or both joined.
 */
import { InvalidInputError } from '../errors.js';
import { DEFAULT_SCOPE } from '../model/memory.js';
import { deleteEntitiesTool, deleteObservationsTool, deleteRelationsTool } from './graph-delete-tools.js';
import { openNodesTool, readGraphTool, searchNodesTool } from './graph-read-tools.js';
import type { GraphToolName } from './graph-schemas.js';
import { addObservationsTool, createEntitiesTool, createRelationsTool } from './graph-write-tools.js';
import { bindTool, type MemoryTool, type ToolEngine } from './tool.js';

/** Every graph tool, in the reference server's order. Names are a stable contract. */
const DEFINITIONS = [
  createEntitiesTool,
  createRelationsTool,
  addObservationsTool,
  deleteEntitiesTool,
  deleteObservationsTool,
  deleteRelationsTool,
  readGraphTool,
  searchNodesTool,
  openNodesTool,
] as const;

/** The graph tools' names, those of the MCP reference memory server; they never change. */
export const GRAPH_TOOL_NAMES = DEFINITIONS.map((definition) => definition.name) as readonly GraphToolName[];

/** What the graph tools are bound to. */
export interface GraphToolsOptions {
  /** The engine (or anything with the same operations); the tools use its `graph`. */
  engram: ToolEngine;
  /** Offer only these tools. @default all nine */
  only?: readonly GraphToolName[];
}

/**
 * The knowledge-graph tools as `{ name, description, inputSchema, argsSchema, execute(args) }`:
 * `create_entities`, `create_relations`, `add_observations`, `delete_entities`,
 * `delete_observations`, `delete_relations`, `read_graph` (paged), `search_nodes`, `open_nodes`.
 */
export function createGraphTools(options: GraphToolsOptions): MemoryTool[] {
  const unknown = (options.only ?? []).filter((name) => !GRAPH_TOOL_NAMES.includes(name));
  if (unknown.length > 0) {
    throw new InvalidInputError(`unknown graph tool ${unknown.join(', ')}: choose from ${GRAPH_TOOL_NAMES.join(', ')}`);
  }
  // The graph belongs to the tenant, not to a session or a scope: the context's other fields go unused.
  const context = { engram: options.engram, sessionId: null, scope: DEFAULT_SCOPE, scopes: undefined, source: 'agent' as const };
  return DEFINITIONS.filter((definition) => !options.only || options.only.includes(definition.name as GraphToolName)).map(
    (definition) => bindTool(definition as Parameters<typeof bindTool>[0], context) as MemoryTool,
  );
}
