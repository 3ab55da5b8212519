/**
 * The SDK's model input as Engram's conversation driver reads it, and back: the transcript view
 * (roles, and user text), the step the model took since the last call, Engram's recall block and
 * nudges as system items, and how a past turn's are told apart from the conversation.
 */
import type { AgentInputItem } from '@openai/agents';

import { isEngramContextMessage, type TranscriptMessage } from '../../entries/tools.js';
import type { AgentStep } from '../../index.js';

type UserItem = Extract<AgentInputItem, { role: 'user' }>;

/** Whether `item` is a recall block or a nudge Engram inserted into an earlier call. */
export function isEngramItem(item: AgentInputItem): boolean {
  return 'role' in item && item.role === 'system' && typeof item.content === 'string' && isEngramContextMessage(item.content);
}

/** The last user message of the input — the item, and a key of its position and text — or undefined. */
export function lastUserItem(input: readonly AgentInputItem[]): { item: UserItem; key: string } | undefined {
  for (let index = input.length - 1; index >= 0; index--) {
    const item = input[index];
    if (item && 'role' in item && item.role === 'user') return { item, key: `${index}\u0000${userText(item)}` };
  }
  return undefined;
}

/** Roles and user text, for `ConversationRecall.beforeCall`. */
export function transcriptOf(input: readonly AgentInputItem[]): TranscriptMessage[] {
  return input.map((item) => {
    if (!('role' in item)) return { role: item.type ?? 'item' };
    return item.role === 'user' ? { role: 'user', text: userText(item) } : { role: item.role };
  });
}

/** The model's step among `items` (what it answered since the last call): its text and its tool calls. */
export function stepOf(items: readonly AgentInputItem[]): AgentStep {
  const text: string[] = [];
  const toolCalls: AgentInputItem[] = [];
  for (const item of items) {
    if ('role' in item && item.role === 'assistant') {
      for (const part of item.content) if (part.type === 'output_text') text.push(part.text);
    } else if (!('role' in item) && item.type !== undefined && item.type.endsWith('_call')) {
      toolCalls.push(item);
    }
  }
  return { assistantText: text.join(''), toolCalls };
}

/** One of Engram's messages as a system item of the model input. */
export function systemItem(message: { content: string }): AgentInputItem {
  return { type: 'message', role: 'system', content: message.content };
}

function userText(item: UserItem): string {
  if (typeof item.content === 'string') return item.content;
  return item.content.flatMap((part) => (part.type === 'input_text' ? [part.text] : [])).join('\n');
}
