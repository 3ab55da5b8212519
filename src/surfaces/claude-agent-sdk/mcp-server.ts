/**
 * Engram's memory tools as an in-process MCP server for the Agent SDK: the config object
 * `createSdkMcpServer()` returns (`{ type: "sdk", name, instance }`), put in `query()`'s
 * `mcpServers`. The server is the MCP SDK's own `McpServer`, serving the tools' JSON Schema and
 * Engram's messages exactly as `engram mcp` does; the SDK connects it to Claude Code in-process.
 */
import type { McpSdkServerConfigWithInstance } from '@anthropic-ai/claude-agent-sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import {
  callMcpTool,
  createGraphTools,
  createMemoryTools,
  GRAPH_TOOL_NAMES,
  MEMORY_TOOL_NAMES,
  type MemoryTool,
  toMcpTools,
} from '../../entries/tools.js';
import { type Engram, InvalidInputError, isEngramError } from '../../index.js';
import { ENGRAM_VERSION } from '../version.js';

/** What `engramMcpServer` takes. */
export interface EngramMcpServerOptions {
  /** The engine from `openEngram()`; the server does not close it. */
  engram: Engram;
  /**
   * The session the tools write for (thoughts, the handoff, the activity log): the id `query()`
   * runs with (its `sessionId` option, or the `session_id` of its messages). `engramForAgentSdk`
   * follows the hooks' session instead. @default a new session
   */
  sessionId?: string | undefined;
  /** The scope the tools write to and search first. @default "global" */
  scope?: string | undefined;
  /** Serve the knowledge-graph tools too (search_nodes, create_entities, …). @default false */
  graphTools?: boolean | undefined;
  /**
   * Keep the tools in every prompt rather than behind Claude Code's tool search (each tool's
   * `_meta["anthropic/alwaysLoad"]`, as `createSdkMcpServer({ alwaysLoad })` sets it): a model that
   * has not seen a tool's schema calls it with the wrong arguments. @default true
   */
  alwaysLoad?: boolean | undefined;
  /** The server's name in `mcpServers`; its tools are `mcp__<name>__<tool>`. @default "engram" */
  name?: string | undefined;
}

/** The tool `_meta` key Claude Code reads to keep a tool out of its deferred tool search. */
const ALWAYS_LOAD = 'anthropic/alwaysLoad';

/** Told to the model at initialization (the SDK passes it on as the server's instructions). */
const INSTRUCTIONS = [
  'Engram is your long-term memory across conversations.',
  'Search with search_memory before answering from assumptions; store durable facts, preferences and decisions with write_memory;',
  'keep working notes with scratch_note, private reasoning with think, and before ending leave a write_session_handoff for the next session.',
].join(' ');

/**
 * Engram's memory tools as an in-process MCP server: `query({ prompt, options: { mcpServers: {
 * engram: engramMcpServer({ engram }) } } })`.
 */
export function engramMcpServer(options: EngramMcpServerOptions): McpSdkServerConfigWithInstance {
  const { engram, sessionId } = options ?? ({} as Partial<EngramMcpServerOptions>);
  if (!engram) throw new InvalidInputError('engramMcpServer needs { engram }: the engine from openEngram()');
  const fixed = sessionId ?? engram.session({ scope: options.scope }).id;
  return createEngramMcpServer(options, () => fixed);
}

/** The server, its tools bound at each call to the session `currentSession` names. */
export function createEngramMcpServer(
  options: EngramMcpServerOptions,
  currentSession: () => string,
): McpSdkServerConfigWithInstance {
  const { engram, scope, graphTools = false, alwaysLoad = true, name = 'engram' } = options;
  if (!/^[A-Za-z0-9_-]+$/.test(name)) {
    throw new InvalidInputError(`name must be letters, digits, "_" or "-", as MCP tool names are (got ${JSON.stringify(name)})`);
  }
  const graph = graphTools ? createGraphTools({ engram }) : [];
  // Names and schemas are the same for every session: listed once, even from a closed engine.
  const listed = toMcpTools([...createMemoryTools({ engram }), ...graph]).map((tool) =>
    alwaysLoad ? { ...tool, _meta: { [ALWAYS_LOAD]: true } } : tool,
  );
  const server = new McpServer({ name, version: ENGRAM_VERSION }, { instructions: INSTRUCTIONS });
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    let tools: MemoryTool[];
    try {
      // The session's own tools (`session.tools()`): they write to its scope and search what its recall sees.
      tools = [...engram.session({ id: currentSession(), scope }).tools(), ...graph];
    } catch (error) {
      // A closed engine: Engram's message, for the model to read, as a failing tool's is.
      if (isEngramError(error)) return { content: [{ type: 'text', text: error.message }], isError: true };
      throw error;
    }
    return { ...(await callMcpTool(tools, request.params)) };
  });
  return { type: 'sdk', name, instance: server };
}

/** The names `query()`'s `allowedTools` gives the server's tools: `mcp__<server>__<tool>`. */
export function engramToolNames(options: { name?: string | undefined; graphTools?: boolean | undefined } = {}): string[] {
  const { name = 'engram', graphTools = false } = options;
  const tools = [...MEMORY_TOOL_NAMES, ...(graphTools ? GRAPH_TOOL_NAMES : [])];
  return tools.map((tool) => `mcp__${name}__${tool}`);
}
