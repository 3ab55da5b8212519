/**
 * Reading what the assistant said from the end of a Claude Code transcript (JSON Lines; an
 * assistant entry holds `message.content` blocks of type `text` and `tool_use`, and one model
 * message may span entries sharing `message.id`). Only the tail is read, so the cost stays flat
 * however long the session grows. The transcript is a convenience, not an interface Engram
 * depends on: a missing file or a line cut or of another shape means nothing known, and a file
 * that exists but cannot be read (no permission, a folder) is told to `warn`, then read as
 * nothing known, so the hook still answers.
 */
import { open } from 'node:fs/promises';

import { z } from 'zod';

/** Bytes read from the end of the transcript. */
export const TAIL_BYTES = 256 * 1024;
/** Characters of assistant text kept per step; the embedder reads 128 tokens at most. */
const MAX_TEXT_CHARS = 2000;

/** One model message as the transcript's tail shows it. */
export interface AssistantMessage {
  /** The API message id; null when the entry has none. */
  id: string | null;
  /** Its text blocks, joined. Empty when it only called tools. */
  text: string;
  /** Its tool calls' ids, in order. */
  toolUseIds: string[];
}

const ContentBlockSchema = z.looseObject({ type: z.string(), text: z.string().optional(), id: z.string().optional() });
const AssistantEntrySchema = z.looseObject({
  type: z.literal('assistant'),
  message: z.looseObject({
    id: z.string().optional(),
    content: z.union([z.string(), z.array(ContentBlockSchema)]),
  }),
});

/** How to read a transcript's tail. */
export interface TailOptions {
  /** Bytes read from the end. @default TAIL_BYTES */
  bytes?: number;
  /** Told, in one line, when the file exists but cannot be read. */
  warn?: (line: string) => void;
}

/** The assistant messages at the end of `file`, oldest first; [] when missing or unreadable. */
export async function readAssistantTail(
  file: string,
  { bytes = TAIL_BYTES, warn }: TailOptions = {},
): Promise<AssistantMessage[]> {
  let text: string;
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      const start = Math.max(0, size - bytes);
      const buffer = Buffer.alloc(size - start);
      await handle.read(buffer, 0, buffer.length, start);
      text = buffer.toString('utf8');
      // The first line is cut unless the tail starts the file.
      if (start > 0) text = text.slice(text.indexOf('\n') + 1);
    } finally {
      await handle.close();
    }
  } catch (error) {
    // No transcript yet is ordinary; anything else is worth a line.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      warn?.(`cannot read the transcript ${file} (${(error as Error).message}): counting the step without its text`);
    }
    return [];
  }
  return groupMessages(text.split('\n'));
}

/** Parses transcript lines into model messages, merging entries that share a message id. */
export function groupMessages(lines: readonly string[]): AssistantMessage[] {
  const messages: AssistantMessage[] = [];
  for (const line of lines) {
    const entry = parseEntry(line);
    if (!entry) continue;
    const { id, content } = entry.message;
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    const texts = blocks.flatMap((block) => (block.type === 'text' && block.text?.trim() ? [block.text.trim()] : []));
    const toolUseIds = blocks.flatMap((block) => (block.type === 'tool_use' && block.id ? [block.id] : []));
    const last = messages.at(-1);
    if (last && id !== undefined && last.id === id) {
      last.text = [last.text, ...texts].filter((part) => part.length > 0).join('\n');
      last.toolUseIds.push(...toolUseIds);
    } else {
      messages.push({ id: id ?? null, text: texts.join('\n'), toolUseIds });
    }
  }
  return messages;
}

/** The model message that made the tool call `toolUseId`, or null when the tail does not show it. */
export function messageOfToolUse(messages: readonly AssistantMessage[], toolUseId: string): AssistantMessage | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as AssistantMessage;
    if (message.toolUseIds.includes(toolUseId)) return message;
  }
  return null;
}

/** The text of the latest model message that said anything, or null. */
export function lastAssistantText(messages: readonly AssistantMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const text = (messages[i] as AssistantMessage).text;
    if (text.length > 0) return clipText(text);
  }
  return null;
}

/** `text` cut to the characters worth keeping for recall's query window. */
export function clipText(text: string): string {
  return text.length <= MAX_TEXT_CHARS ? text : text.slice(0, MAX_TEXT_CHARS);
}

function parseEntry(line: string): z.infer<typeof AssistantEntrySchema> | null {
  // Cheap filter first: most lines are tool results, user messages and metadata.
  if (!line.includes('"assistant"')) return null;
  try {
    const result = AssistantEntrySchema.safeParse(JSON.parse(line));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}
