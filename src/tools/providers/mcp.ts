/**
 * The memory tools as Model Context Protocol tool definitions (`tools/list`) and call results
 * (`tools/call`): plain JSON, so any MCP server implementation can serve them.
 */
import { runTool } from '../run-tool.js';
import type { MemoryTool } from '../tool.js';

/** An entry of `tools/list`. */
export interface McpToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** The result of `tools/call`. */
export interface McpCallToolResult {
  content: { type: 'text'; text: string }[];
  /** The result as an object, for clients that read structured content. */
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

/** The tools for `tools/list`. */
export function toMcpTools(tools: readonly MemoryTool[]): McpToolDefinition[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
}

/** Answers `tools/call` with `params` `{ name, arguments }`; errors the model can fix come back with `isError`. */
export async function callMcpTool(
  tools: readonly MemoryTool[],
  params: { name: string; arguments?: Record<string, unknown> | undefined },
): Promise<McpCallToolResult> {
  const outcome = await runTool(tools, params.name, params.arguments ?? {});
  if (!outcome.ok) return { content: [{ type: 'text', text: outcome.error }], isError: true };
  return {
    content: [{ type: 'text', text: JSON.stringify(outcome.result) }],
    structuredContent: outcome.result as Record<string, unknown>,
  };
}
