/**
 * The memory tools in OpenAI's shapes: function tools for Chat Completions (`tools`, the
 * default) or the Responses API, and the message that answers a tool call in either.
 */
import { outcomeText, runToolWithJsonArguments } from '../run-tool.js';
import type { MemoryTool } from '../tool.js';

/** A Chat Completions function tool. */
export interface OpenAiChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** A Responses API function tool. */
export interface OpenAiResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: false;
}

/** A tool call from a Chat Completions message (`message.tool_calls[i]`). */
export interface OpenAiChatToolCall {
  id: string;
  type?: 'function';
  function: { name: string; arguments: string };
}

/** A function call item from the Responses API output. */
export interface OpenAiResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
}

/** The answer to a Chat Completions tool call, to append to `messages`. */
export interface OpenAiToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** The answer to a Responses API function call, to send as input. */
export interface OpenAiFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

/** The tools for Chat Completions' `tools` parameter. */
export function toOpenAiTools(tools: readonly MemoryTool[]): OpenAiChatTool[];
/** The tools for the Responses API's `tools` parameter. */
export function toOpenAiTools(tools: readonly MemoryTool[], options: { api: 'responses' }): OpenAiResponsesTool[];
export function toOpenAiTools(
  tools: readonly MemoryTool[],
  options: { api?: 'chat' | 'responses' } = {},
): OpenAiChatTool[] | OpenAiResponsesTool[] {
  if (options.api === 'responses') {
    return tools.map((tool): OpenAiResponsesTool => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      // Strict mode wants every field required; these schemas have optional fields.
      strict: false,
    }));
  }
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

/** Runs a Chat Completions tool call and returns the `tool` message that answers it. */
export async function runOpenAiToolCall(tools: readonly MemoryTool[], call: OpenAiChatToolCall): Promise<OpenAiToolMessage>;
/** Runs a Responses API function call and returns the `function_call_output` that answers it. */
export async function runOpenAiToolCall(
  tools: readonly MemoryTool[],
  call: OpenAiResponsesFunctionCall,
): Promise<OpenAiFunctionCallOutput>;
export async function runOpenAiToolCall(
  tools: readonly MemoryTool[],
  call: OpenAiChatToolCall | OpenAiResponsesFunctionCall,
): Promise<OpenAiToolMessage | OpenAiFunctionCallOutput> {
  if ('call_id' in call) {
    const outcome = await runToolWithJsonArguments(tools, call.name, call.arguments);
    return { type: 'function_call_output', call_id: call.call_id, output: outcomeText(outcome) };
  }
  const outcome = await runToolWithJsonArguments(tools, call.function.name, call.function.arguments);
  return { role: 'tool', tool_call_id: call.id, content: outcomeText(outcome) };
}
