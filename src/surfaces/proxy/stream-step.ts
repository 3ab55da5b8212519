/**
 * Reads the model's step out of a Chat Completions answer — whole (JSON) or streamed (server-sent
 * events) — while the bytes go to the client unchanged: the assistant's text and its tool calls,
 * which is all `afterStep` counts.
 */
import type { AgentStep } from '../../index.js';

interface ChoiceMessage {
  content?: unknown;
  tool_calls?: unknown;
}

/** The step of a non-streamed answer (its first choice). */
export function stepOfCompletion(body: unknown): AgentStep {
  const message = (body as { choices?: { message?: ChoiceMessage }[] } | null)?.choices?.[0]?.message;
  return {
    assistantText: typeof message?.content === 'string' ? message.content : null,
    toolCalls: Array.isArray(message?.tool_calls) ? message.tool_calls : [],
  };
}

/** Accumulates a streamed answer's first choice from its SSE bytes, chunk by chunk. */
export class StreamedStep {
  private buffer = '';
  private text = '';
  /** Tool calls by their `index` in the deltas. */
  private readonly calls = new Map<number, { id?: string; name?: string }>();
  private readonly decoder = new TextDecoder();

  push(bytes: Uint8Array): void {
    this.buffer += this.decoder.decode(bytes, { stream: true });
    let end = this.buffer.indexOf('\n');
    while (end >= 0) {
      this.readLine(this.buffer.slice(0, end).trim());
      this.buffer = this.buffer.slice(end + 1);
      end = this.buffer.indexOf('\n');
    }
  }

  step(): AgentStep {
    this.readLine(this.buffer.trim());
    this.buffer = '';
    return { assistantText: this.text, toolCalls: [...this.calls.values()] };
  }

  private readLine(line: string): void {
    if (!line.startsWith('data:')) return;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') return;
    let chunk: { choices?: { index?: number; delta?: ChoiceMessage }[] };
    try {
      chunk = JSON.parse(data) as typeof chunk;
    } catch {
      return; // not ours to judge: the client gets the bytes as the upstream sent them
    }
    const delta = chunk.choices?.find((choice) => (choice.index ?? 0) === 0)?.delta;
    if (typeof delta?.content === 'string') this.text += delta.content;
    if (!Array.isArray(delta?.tool_calls)) return;
    for (const call of delta.tool_calls as { index?: number; id?: string; function?: { name?: string } }[]) {
      const index = call.index ?? 0;
      const known = this.calls.get(index) ?? {};
      this.calls.set(index, { id: known.id ?? call.id, name: known.name ?? call.function?.name });
    }
  }
}
