/** The memory tools in Anthropic's Messages API shapes: tool definitions and `tool_result` blocks. */
import { runTool } from '../run-tool.js';
import type { MemoryTool } from '../tool.js';

/** A tool for the Messages API's `tools` parameter. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** A `tool_use` content block from an assistant message. */
export interface AnthropicToolUse {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** The `tool_result` block that answers a `tool_use`, for the next user message. */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: true;
}

/** The tools for the Messages API. */
export function toAnthropicTools(tools: readonly MemoryTool[]): AnthropicTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
}

/** Runs a `tool_use` block and returns the `tool_result` block that answers it. */
export async function runAnthropicToolUse(tools: readonly MemoryTool[], use: AnthropicToolUse): Promise<AnthropicToolResult> {
  const outcome = await runTool(tools, use.name, use.input);
  return outcome.ok
    ? { type: 'tool_result', tool_use_id: use.id, content: JSON.stringify(outcome.result) }
    : { type: 'tool_result', tool_use_id: use.id, content: outcome.error, is_error: true };
}
