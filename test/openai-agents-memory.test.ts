/**
 * `engramMemory` under the OpenAI Agents SDK's own runner, driven by a scripted model that
 * answers with real `function_call` items: Engram's memory tools run as the agent's function
 * tools, the recall block reaches the model at position 1 once per user message (also from a
 * new engine on the same SQLite file), the nudge comes after N tool-only steps, and a past
 * turn's recall kept in the SDK's session is left out of the next call.
 */
import { Agent, type CallModelInputFilter, MemorySession, run } from '@openai/agents';
import { describe, expect, it } from 'vitest';

import { NUDGE_TEXT, RECALL_OPEN } from '../src/context/format.js';
import { engramMemory } from '../src/surfaces/openai-agents/index.js';
import { freshDatabase, openTestEngram } from './activation-helpers.js';
import { scriptedModel, systemTexts, toolOutputs } from './openai-agents-helpers.js';

const INSTRUCTIONS = 'You are the billing team’s assistant.';

describe('engramMemory in an OpenAI Agents SDK run', () => {
  it('writes with write_memory in one run, and a new engine on the same file recalls it at position 1 of the next', async () => {
    const file = freshDatabase();
    const first = await openTestEngram({}, file);
    const session = new MemorySession({ sessionId: 'billing-chat' });
    const memory = await engramMemory({ engram: first.engram, session, log: () => undefined });
    const { model, seen } = scriptedModel([
      {
        calls: [
          { name: 'write_memory', args: { key: 'billing-database', content: 'Billing stores invoices in PostgreSQL 16.' } },
        ],
      },
      { text: 'Noted: billing keeps invoices in PostgreSQL 16.' },
    ]);
    const agent = new Agent({ name: 'billing', instructions: INSTRUCTIONS, model, tools: memory.tools });
    const result = await run(agent, 'Remember: billing stores invoices in PostgreSQL 16.', {
      session,
      callModelInputFilter: memory.callModelInputFilter,
    });
    expect(result.finalOutput).toBe('Noted: billing keeps invoices in PostgreSQL 16.');
    // The SDK ran the tool and gave the model its result.
    const [written] = toolOutputs(seen[1]?.input ?? []);
    expect(written?.name).toBe('write_memory');
    expect(JSON.parse(written?.text ?? '{}')).toMatchObject({ key: 'billing-database' });
    expect(memory.session.id).toBe('billing-chat');
    await first.engram.close();

    const second = await openTestEngram({}, file);
    const later = await engramMemory({ engram: second.engram, sessionId: 'billing-chat-2', log: () => undefined });
    const scripted = scriptedModel([{ text: 'PostgreSQL 16.' }]);
    const agent2 = new Agent({ name: 'billing', instructions: INSTRUCTIONS, model: scripted.model, tools: later.tools });
    await run(agent2, 'Which database keeps the billing invoices?', { callModelInputFilter: later.callModelInputFilter });
    const [call] = scripted.seen;
    expect(call?.instructions).toBe(INSTRUCTIONS);
    // seed 000: the block is the first input item — position 1, right after the instructions.
    expect(call?.input[0]).toMatchObject({ role: 'system' });
    const block = systemTexts(call?.input ?? [])[0] ?? '';
    expect(block.startsWith(RECALL_OPEN)).toBe(true);
    expect(block).toContain('Billing stores invoices in PostgreSQL 16.');
    expect(call?.input[1]).toMatchObject({ role: 'user', content: 'Which database keeps the billing invoices?' });
    await second.engram.close();
  });

  it('answers search_memory with the hits, as the tool output the model reads', async () => {
    // Without cooldown: the run's active recall has just shown the memory, which would hold it
    // back from the search (seed 001) on the test's clock that does not move.
    const { engram } = await openTestEngram({ memory: { cooldown: { decay: 'none' } } });
    await engram.remember({ text: 'The deploy freeze starts every Friday at 16:00.', kind: 'constraint' });
    const memory = await engramMemory({ engram, sessionId: 'search', log: () => undefined });
    const { model, seen } = scriptedModel([
      { calls: [{ name: 'search_memory', args: { query: 'when does the deploy freeze start?' } }] },
      { text: 'Friday at 16:00.' },
    ]);
    const agent = new Agent({ name: 'ops', instructions: 'Answer briefly.', model, tools: memory.tools });
    await run(agent, 'Can I deploy on Friday evening?', { callModelInputFilter: memory.callModelInputFilter });
    const [output] = toolOutputs(seen[1]?.input ?? []);
    expect(output?.name).toBe('search_memory');
    const answer = JSON.parse(output?.text ?? '{}') as { results: { text: string }[] };
    expect(answer.results[0]?.text).toBe('The deploy freeze starts every Friday at 16:00.');
    await engram.close();
  });

  it('recalls once per user message, nudges after N tool-only steps, and leaves a past turn’s block out of the session’s history', async () => {
    const { engram } = await openTestEngram({ memory: { intrusive: { every_tool_turns: 2 } } });
    await engram.remember('The merge loop can stall when specificity is too strict; 0.4 works.');
    const session = new MemorySession({ sessionId: 'merge' });
    const memory = await engramMemory({ engram, session, log: () => undefined });
    const { model, seen } = scriptedModel([
      { calls: [{ name: 'think', args: { thought: 'Check the merge config first.' } }] },
      { calls: [{ name: 'think', args: { thought: 'Then the merge defaults.' } }] },
      { text: 'Lower merge.specificity to 0.4.' },
      { text: 'You are welcome.' },
    ]);
    const agent = new Agent({ name: 'merge', instructions: INSTRUCTIONS, model, tools: memory.tools });
    const options = { session, callModelInputFilter: memory.callModelInputFilter };
    await run(agent, 'The merge job is stuck because the merge loop stalls. Why?', options);
    await run(agent, 'Thanks!', options);

    for (const call of seen.slice(0, 3)) {
      expect(systemTexts(call.input)[0]).toContain('The merge loop can stall when specificity is too strict');
      expect(call.input[0]).toMatchObject({ role: 'system' });
    }
    // seed 001: the second tool-only step brings the nudge, after the tool results.
    expect(systemTexts(seen[1]?.input ?? []).some((text) => text.startsWith(NUDGE_TEXT))).toBe(false);
    expect(seen[2]?.input.at(-1)).toMatchObject({ role: 'system' });
    expect(systemTexts(seen[2]?.input ?? []).at(-1)).toContain(NUDGE_TEXT);
    expect(seen[2]?.input.at(-2)).toMatchObject({ type: 'function_call_result' });
    // The next run's history holds the first turn, without its recall block or nudge.
    const next = seen[3]?.input ?? [];
    expect(next.filter((item) => 'role' in item && item.role === 'user')).toHaveLength(2);
    expect(systemTexts(next).filter((text) => text.startsWith(NUDGE_TEXT))).toEqual([]);
    expect(systemTexts(next.slice(1)).filter((text) => text.startsWith(RECALL_OPEN))).toEqual([]);
    // The SDK's session keeps what the model was given, the first turn's block among it.
    expect(systemTexts(await session.getItems()).some((text) => text.startsWith(RECALL_OPEN))).toBe(true);
    // One active recall per user message: two runs, two receipts.
    const receipts = await engram.receipts({ sessionId: 'merge', limit: 20 });
    expect(receipts.filter((receipt) => receipt.path === 'active').map((receipt) => receipt.turn)).toEqual([2, 1]);
    await engram.close();
  });

  it('starts a new turn for each run, even when a run without a session repeats the last message', async () => {
    const { engram } = await openTestEngram();
    await engram.remember('The staging database is restored from backup every night.');
    const memory = await engramMemory({ engram, sessionId: 'repeat', log: () => undefined });
    const { model, seen } = scriptedModel([{ text: 'Yes.' }, { text: 'Yes, again.' }]);
    const agent = new Agent({ name: 'ops', instructions: INSTRUCTIONS, model });
    for (let index = 0; index < 2; index++) {
      await run(agent, 'Is the staging database restored from backup?', { callModelInputFilter: memory.callModelInputFilter });
    }
    const receipts = await engram.receipts({ sessionId: 'repeat', limit: 20 });
    expect(receipts.filter((receipt) => receipt.path === 'active').map((receipt) => receipt.turn)).toEqual([2, 1]);
    expect(seen).toHaveLength(2);
    await engram.close();
  });

  it('keeps a run’s calls in one turn when the filter is wrapped by the program’s own', async () => {
    const { engram } = await openTestEngram();
    await engram.remember('The merge loop can stall when specificity is too strict; 0.4 works.');
    const memory = await engramMemory({ engram, sessionId: 'wrapped', log: () => undefined });
    const { model, seen } = scriptedModel([
      { calls: [{ name: 'think', args: { thought: 'Check the merge config.' } }] },
      { calls: [{ name: 'think', args: { thought: 'Then the defaults.' } }] },
      { text: 'Lower merge.specificity to 0.4.' },
      { text: 'Lower it to 0.4.' },
    ]);
    const agent = new Agent({ name: 'merge', instructions: INSTRUCTIONS, model, tools: memory.tools });
    // A program's filter around Engram's, as written without the SDK's identity flag: every call
    // then hands the filter new copies of the items.
    const redacting: CallModelInputFilter = async (args) => {
      const data = await memory.callModelInputFilter(args);
      return { ...data, instructions: data.instructions?.replace('billing', '[team]') };
    };
    for (let index = 0; index < 2; index++) {
      await run(agent, 'Why does the merge loop stall?', { callModelInputFilter: redacting });
    }
    expect(seen).toHaveLength(4);
    expect(seen[0]?.instructions).toBe('You are the [team] team’s assistant.');
    for (const call of seen) expect(systemTexts(call.input)[0]).toContain(RECALL_OPEN);
    // One active recall per run (each run is a user message), not one per model call.
    const receipts = await engram.receipts({ sessionId: 'wrapped', limit: 20 });
    expect(receipts.filter((receipt) => receipt.path === 'active').map((receipt) => receipt.turn)).toEqual([2, 1]);
    await engram.close();
  });

  it('recalls in a streamed run too', async () => {
    const { engram } = await openTestEngram();
    await engram.remember('Invoices are archived after seven years.');
    const memory = await engramMemory({ engram, sessionId: 'stream', log: () => undefined });
    const { model, seen } = scriptedModel([{ text: 'After seven years.' }]);
    const agent = new Agent({ name: 'billing', instructions: INSTRUCTIONS, model });
    const result = await run(agent, 'When are invoices archived?', {
      stream: true,
      callModelInputFilter: memory.callModelInputFilter,
    });
    await result.completed;
    expect(result.finalOutput).toBe('After seven years.');
    expect(systemTexts(seen[0]?.input ?? [])[0]).toContain('Invoices are archived after seven years.');
    await engram.close();
  });
});
