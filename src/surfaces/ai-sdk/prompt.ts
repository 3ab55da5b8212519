/**
 * The AI SDK prompt as Engram's conversation driver reads it, and back: the transcript view,
 * the recall block and nudges inserted as system messages, and memory-tool results (which the
 * SDK keeps inside assistant messages, as for any tool its provider ran) moved back into tool
 * messages, so the wrapped model sees an ordinary tool exchange.
 */
import type { TranscriptMessage } from '../../entries/tools.js';
import type { AssistantPart, Prompt, PromptMessage, ToolMessagePart } from './types.js';

/** Roles and user text, for `ConversationRecall.beforeCall`. */
export function transcriptOf(prompt: Prompt): TranscriptMessage[] {
  return prompt.map((message) =>
    message.role === 'user'
      ? {
          role: 'user',
          text: message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n'),
        }
      : { role: message.role },
  );
}

/** The prompt with each memory tool's call and result as a plain client tool exchange. */
export function normalizeMemoryToolParts(prompt: Prompt, memoryTools: ReadonlySet<string>): Prompt {
  if (memoryTools.size === 0) return prompt;
  const normalized: PromptMessage[] = [];
  for (let index = 0; index < prompt.length; index++) {
    const message = prompt[index] as PromptMessage;
    if (message.role !== 'assistant') {
      normalized.push(message);
      continue;
    }
    const kept: AssistantPart[] = [];
    const results: ToolMessagePart[] = [];
    for (const part of message.content) {
      if (part.type === 'tool-result' && memoryTools.has(part.toolName)) results.push(part);
      else if (part.type === 'tool-call' && memoryTools.has(part.toolName)) kept.push({ ...part, providerExecuted: false });
      else kept.push(part);
    }
    normalized.push({ ...message, content: kept });
    if (results.length === 0) continue;
    // The results join the tool message that answers the step's other calls, if there is one.
    const next = prompt[index + 1];
    if (next?.role === 'tool') {
      normalized.push({ ...next, content: [...results, ...next.content] });
      index += 1;
    } else normalized.push({ role: 'tool', content: results });
  }
  return normalized;
}
