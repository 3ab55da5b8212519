/**
 * `generateText` through the middleware: each model call gets this turn's recall block and
 * nudges; each step is counted by the session; while the model calls only memory tools, the
 * middleware runs them and calls the model again, returning every step's content in one result.
 */
import { markExecuted, runMemoryToolCall } from './memory-tools.js';
import { normalizeMemoryToolParts } from './prompt.js';
import { isMemoryCall, type MiddlewareState, prepareCall } from './state.js';
import { addUsage, continuation, stepOf } from './step.js';
import type { CallOptions, Content, GenerateResult, LanguageModel, ToolCallContent, ToolResultContent } from './types.js';

export async function generateWithMemory(
  state: MiddlewareState,
  model: LanguageModel,
  params: CallOptions,
): Promise<GenerateResult> {
  let prompt = normalizeMemoryToolParts(params.prompt, state.toolNames);
  const content: Content[] = [];
  let usage: GenerateResult['usage'] | null = null;
  for (let step = 1; ; step++) {
    const result = await model.doGenerate(await prepareCall(state, params, prompt));
    await state.recall.afterCall(stepOf(result.content));
    usage = usage ? addUsage(usage, result.usage) : result.usage;
    const calls: ToolCallContent[] = [];
    const results: ToolResultContent[] = [];
    let hostCalls = false;
    for (const part of result.content) {
      if (part.type === 'tool-call' && isMemoryCall(state, part, params)) {
        const answer = await runMemoryToolCall(state.tools, part);
        calls.push(part);
        results.push(answer);
        content.push(markExecuted(part), answer);
        continue;
      }
      if (part.type === 'tool-call' && !part.providerExecuted) hostCalls = true;
      content.push(part);
    }
    // The host runs its own tools; and a model that only ever calls memory tools is stopped.
    if (calls.length === 0 || hostCalls || step >= state.maxMemoryToolSteps) return { ...result, content, usage };
    prompt = [...prompt, ...continuation(stepOf(result.content).assistantText ?? '', calls, results)];
  }
}
