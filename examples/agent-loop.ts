/**
 * A complete agent loop with Engram, over a scripted model that emits real OpenAI-style tool
 * calls. Run it with `npx tsx examples/agent-loop.ts` (after `npm ci`).
 *
 * Session 1: the user states a fact; the model writes it with `write_memory`, thinks with
 * `think`, and leaves a handoff note with `write_session_handoff`.
 * Session 2 (a new engine on the same file, as a new process would be): the handoff comes
 * first in the context, and active recall puts the stored fact in front of the model.
 * Session 3: a long tool loop; after five tool-only steps the reflection nudge arrives with
 * intrusive recall's memories.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { runOpenAiToolCall, toOpenAiTools } from '../src/entries/tools.js';
import { type Engram, openEngram, type Session } from '../src/index.js';

/** A chat message in the OpenAI Chat Completions shape. */
type Message =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };
type ToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };

/** The model: a script of replies. Each reply is what a real model would return for the turn. */
function scriptedModel(script: Message[]): (messages: readonly Message[]) => Message {
  let step = 0;
  return () => {
    const reply = script[step++];
    if (!reply) throw new Error('the script ran out of replies');
    return reply;
  };
}

let calls = 0;
function call(name: string, args: Record<string, unknown>): ToolCall {
  calls += 1;
  return { id: `call_${calls}`, type: 'function', function: { name, arguments: JSON.stringify(args) } };
}

/** What the user sees: the assistant's answers, never tool calls, thoughts or injected memory. */
export function userVisibleOutput(messages: readonly Message[]): string[] {
  return messages.flatMap((m) => (m.role === 'assistant' && m.content && !m.tool_calls?.length ? [m.content] : []));
}

/** A tool of the host application (not a memory tool): reads a pretend file. */
function readFile(args: string): string {
  const { path: file } = JSON.parse(args) as { path: string };
  return `contents of ${file}: merge.specificity = 0.9`;
}

/** One user message through the loop: active recall, then model steps until an answer. */
async function runTurn(session: Session, model: (m: readonly Message[]) => Message, history: Message[], text: string) {
  const tools = session.tools();
  history.push({ role: 'user', content: text });
  const { message } = await session.beforeTurn(text);
  // seed 000: the recall block goes in as a system message at position 1, for this turn only
  const turn: Message[] = message ? [history[0] as Message, message, ...history.slice(1)] : [...history];
  for (;;) {
    const reply = model(turn);
    turn.push(reply);
    history.push(reply);
    const toolCalls = reply.role === 'assistant' ? (reply.tool_calls ?? []) : [];
    for (const toolCall of toolCalls) {
      const result = tools.some((tool) => tool.name === toolCall.function.name)
        ? await runOpenAiToolCall(tools, toolCall)
        : { role: 'tool' as const, tool_call_id: toolCall.id, content: readFile(toolCall.function.arguments) };
      turn.push(result);
      history.push(result);
    }
    const { nudge } = await session.afterStep({ assistantText: reply.role === 'assistant' ? reply.content : null, toolCalls });
    if (nudge) {
      console.log(`\n[nudge for the model]\n${nudge.content}`);
      turn.push(nudge);
    }
    if (toolCalls.length === 0) return;
  }
}

export async function main(directory = mkdtempSync(path.join(os.tmpdir(), 'engram-example-'))): Promise<void> {
  const file = path.join(directory, 'engram.db');
  const system: Message = { role: 'system', content: 'You are a helpful assistant with a long-term memory.' };
  const open = (): Promise<Engram> => openEngram({ path: file });

  // Session 1 — the model writes a memory, thinks, and leaves a handoff note.
  let engram = await open();
  let session = engram.session({ id: 'session-1', scope: 'user:alice' });
  let history: Message[] = [system];
  console.log(
    `tools offered to the model: ${toOpenAiTools(session.tools())
      .map((t) => t.function.name)
      .join(', ')}`,
  );
  await runTurn(
    session,
    scriptedModel([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          call('write_memory', { key: 'billing-database', content: 'The billing service stores invoices in PostgreSQL 16.' }),
          call('think', { thought: 'Alice cares about billing; check the invoice export next time.' }),
        ],
      },
      { role: 'assistant', content: 'Noted: billing uses PostgreSQL 16.' },
    ]),
    history,
    'For the record, our billing service keeps invoices in PostgreSQL 16.',
  );
  await runTurn(
    session,
    scriptedModel([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          call('write_session_handoff', { content: 'Alice told us billing runs on PostgreSQL 16. Next: the invoice export.' }),
        ],
      },
      { role: 'assistant', content: 'Bye for now!' },
    ]),
    history,
    'Thanks, that is all for today.',
  );
  console.log(`\n[session 1: the user saw]\n${userVisibleOutput(history).join('\n')}`);
  await session.end();
  await engram.close();

  // Session 2 — a new engine, as a new process: the handoff comes first; recall finds the fact.
  engram = await open();
  session = engram.session({ id: 'session-2', scope: 'user:alice' });
  const start = await session.start();
  console.log(`\n[session 2 starts with ${start.sections.map((s) => s.name).join(', ')}]\n${start.sections[0]?.text}`);
  history = [system];
  const recall = await session.beforeTurn('Which database does billing use again?');
  console.log(`\n[active recall for "Which database does billing use again?"]\n${recall.message?.content ?? 'nothing'}`);
  console.log(`why: ${recall.receipt?.whySummary}`);
  await session.end();

  // Session 3 — a long tool loop: the fifth tool-only step brings the reflection nudge.
  await engram.remember({ text: 'The merge loop can stall when specificity is too strict; 0.4 works.', source: 'agent' });
  session = engram.session({ id: 'session-3', scope: 'user:alice' });
  const reads = Array.from({ length: 5 }, (_, i) => ({
    role: 'assistant' as const,
    content: `Reading merge config part ${i + 1} to see why the merge loop stalls.`,
    tool_calls: [call('read_file', { path: `merge-${i + 1}.yaml` })],
  }));
  await runTurn(
    session,
    scriptedModel([...reads, { role: 'assistant', content: 'Lowering merge.specificity to 0.4 should unstick it.' }]),
    [system],
    'The merge job is stuck again. Can you look?',
  );
  await session.end();
  await engram.close();
  rmSync(directory, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
