/** One model step of the wrapped model: what the session counts, and how steps add up. */
import type { AgentStep } from '../../index.js';
import type { Content, PromptMessage, ToolCallContent, ToolResultContent, Usage } from './types.js';

/** The step for `afterStep`: the assistant's text and its tool calls. */
export function stepOf(content: readonly Content[]): AgentStep {
  return {
    assistantText: content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(''),
    toolCalls: content.filter((part) => part.type === 'tool-call'),
  };
}

/** Token counts of two calls added up (unknown stays unknown only if both are). */
export function addUsage(a: Usage, b: Usage): Usage {
  const add = (x: number | undefined, y: number | undefined) =>
    x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0);
  return {
    inputTokens: {
      total: add(a.inputTokens.total, b.inputTokens.total),
      noCache: add(a.inputTokens.noCache, b.inputTokens.noCache),
      cacheRead: add(a.inputTokens.cacheRead, b.inputTokens.cacheRead),
      cacheWrite: add(a.inputTokens.cacheWrite, b.inputTokens.cacheWrite),
    },
    outputTokens: {
      total: add(a.outputTokens.total, b.outputTokens.total),
      text: add(a.outputTokens.text, b.outputTokens.text),
      reasoning: add(a.outputTokens.reasoning, b.outputTokens.reasoning),
    },
  };
}

/** The messages that continue the prompt after a step whose calls were all memory tools. */
export function continuation(
  text: string,
  calls: readonly ToolCallContent[],
  results: readonly ToolResultContent[],
): PromptMessage[] {
  return [
    {
      role: 'assistant',
      content: [
        ...(text ? [{ type: 'text' as const, text }] : []),
        ...calls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          input: parseInput(call.input),
        })),
      ],
    },
    {
      role: 'tool',
      content: results.map((result) => ({
        type: 'tool-result' as const,
        toolCallId: result.toolCallId,
        toolName: result.toolName,
        output: result.isError
          ? { type: 'error-json' as const, value: result.result }
          : { type: 'json' as const, value: result.result },
      })),
    },
  ];
}

function parseInput(input: string): unknown {
  try {
    return input.trim() === '' ? {} : JSON.parse(input);
  } catch {
    return input;
  }
}
