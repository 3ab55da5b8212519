/**
 * Engram's memory tools offered to the wrapped model and run by the middleware itself, the way a
 * provider runs its own tools: the SDK receives each call marked as already executed, with its
 * result, so the host's `tools` need not list them.
 */
import { type MemoryTool, runOpenAiToolCall } from '../../entries/tools.js';
import type { FunctionTool, ToolCallContent, ToolResultContent } from './types.js';

/** The tools in the SDK's call-options shape. */
export function offeredTools(tools: readonly MemoryTool[]): FunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as FunctionTool['inputSchema'],
  }));
}

/** The call as the SDK should record it: run by the provider (here, Engram), not by the host. */
export function markExecuted(call: ToolCallContent): ToolCallContent {
  return { ...call, providerExecuted: true, dynamic: true };
}

/** Runs one memory tool call; a mistake the model can fix comes back as an error result, not a throw. */
export async function runMemoryToolCall(tools: readonly MemoryTool[], call: ToolCallContent): Promise<ToolResultContent> {
  const answer = await runOpenAiToolCall(tools, {
    id: call.toolCallId,
    type: 'function',
    function: { name: call.toolName, arguments: call.input },
  });
  const result = JSON.parse(answer.content) as ToolResultContent['result'];
  const isError = typeof result === 'object' && !Array.isArray(result) && Object.keys(result).join() === 'error';
  return { type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, result, isError, dynamic: true };
}
