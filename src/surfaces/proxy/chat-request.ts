/**
 * A Chat Completions request as the proxy reads it: checked only where the proxy depends on it
 * (an object with a list of messages, each with a role); everything else goes to the upstream as
 * sent, for it to judge. Also the transcript view the conversation driver reads.
 */
import type { TranscriptMessage } from '../../entries/tools.js';

/** A message of the request, kept whole: only `role` and a user message's text are read. */
export type ChatMessage = { role: string; content?: unknown } & Record<string, unknown>;

export interface ChatRequest {
  body: Record<string, unknown> & { messages: ChatMessage[] };
  stream: boolean;
  /** The request's `user` field, when it is a non-empty string. */
  user: string | null;
}

/** The request, or the one-line problem to report to the client. */
export function parseChatRequest(text: string): ChatRequest | { problem: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { problem: 'the request body is not valid JSON: send a Chat Completions request object' };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { problem: 'the request body must be a JSON object with "model" and "messages"' };
  }
  const { messages, stream, user } = body as Record<string, unknown>;
  if (!Array.isArray(messages) || messages.length === 0) {
    return { problem: '"messages" must be a non-empty list of chat messages' };
  }
  const bad = messages.findIndex((m) => typeof m !== 'object' || m === null || typeof (m as ChatMessage).role !== 'string');
  if (bad >= 0) return { problem: `messages[${bad}] must be an object with a "role" (system, user, assistant or tool)` };
  if (stream !== undefined && typeof stream !== 'boolean') return { problem: '"stream" must be true or false' };
  return {
    body: body as ChatRequest['body'],
    stream: stream === true,
    user: typeof user === 'string' && user.trim().length > 0 ? user : null,
  };
}

/** Roles and user text, for `ConversationRecall.beforeCall`. */
export function transcriptOf(messages: readonly ChatMessage[]): TranscriptMessage[] {
  return messages.map((message) =>
    message.role === 'user' ? { role: 'user', text: textOf(message.content) } : { role: message.role },
  );
}

/** A message's text: a string, or the text parts of a list of content parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part: unknown) =>
      typeof part === 'object' &&
      part !== null &&
      (part as { type?: unknown }).type === 'text' &&
      typeof (part as { text?: unknown }).text === 'string'
        ? [(part as { text: string }).text]
        : [],
    )
    .join('\n');
}
