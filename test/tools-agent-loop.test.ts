/**
 * A scripted model drives an agent loop through the exported tool definitions: the model's
 * turns are real tool-call JSON in OpenAI's and Anthropic's shapes, the loop answers them with
 * `runOpenAiToolCall` / `runAnthropicToolUse`, and the model reads the answers. Every tool is
 * called, one call is malformed, and the memory ends up as the calls say. The MCP and Vercel
 * AI SDK shapes are driven the same way, without a loop.
 */
import { describe, expect, it } from 'vitest';

import {
  type AnthropicToolResult,
  type AnthropicToolUse,
  callMcpTool,
  createMemoryTools,
  type OpenAiToolMessage,
  runAnthropicToolUse,
  runOpenAiToolCall,
  SCRATCHPAD_KEY,
  SESSION_HANDOFF_KEY,
  toAiSdkTools,
  toAnthropicTools,
  toMcpTools,
  toOpenAiTools,
} from '../src/entries/tools.js';
import type { Engram } from '../src/index.js';
import { openTestEngram } from './tools-helpers.js';

/** One tool call the scripted model makes. */
interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
}

/** The model's plan: each turn's calls, decided from the answers it has read so far. */
function script(answers: readonly unknown[]): ScriptedCall[] | null {
  switch (answers.length) {
    case 0:
      return [
        { name: 'think', args: { thought: 'Look it up before answering; do not guess.' } },
        { name: 'search_memory', args: { query: 'billing database', limit: 500 } },
        { name: 'scratch_note', args: { mode: 'replace', content: '1. find the billing DB' } },
      ];
    case 3: {
      // The model reads the search result and writes down what it found.
      const found = answers[1] as { results: { text: string }[] };
      return [
        { name: 'write_memory', args: { key: 'billing-db', content: found.results[0]?.text ?? 'nothing found' } },
        { name: 'write_memory', args: { key: 'billing-db', content: 'Confirmed by Alice.', mode: 'append' } },
        { name: 'scratch_note', args: { mode: 'append', content: '2. noted it' } },
        { name: 'search_memory', args: { query: '' } },
        { name: 'write_memory', args: { key: 'broken', content: 42 } },
      ];
    }
    case 8:
      return [
        {
          name: 'store_solution',
          args: {
            goal: 'Write a CSV parser',
            approach: 'Used fs.readFileSync, split by newlines.',
            outcome: 'Working script',
            confidence: 90,
          },
        },
        { name: 'recall_solution', args: { goal: 'Parse a CSV file', similarity: 'keyword' } },
        { name: 'scratch_note', args: { mode: 'read' } },
      ];
    case 11:
      return [
        { name: 'scratch_note', args: { mode: 'clear' } },
        { name: 'write_session_handoff', args: { content: 'Billing DB is PostgreSQL; CSV parser exists.' } },
      ];
    default:
      return null; // done: the model answers in text
  }
}

const CSV_BLOCK = [
  '### RECALL: Similar Task Found in Memory',
  'Similarity: 33%',
  'Prior Goal: Write a CSV parser',
  'How it was solved: Used fs.readFileSync, split by newlines.',
  'Outcome: Working script',
  'Confidence: 90%',
  'Consider this approach before starting from scratch.',
  '### END RECALL',
].join('\n');

/** What every provider's loop must leave behind, given the answers the model read in order. */
async function expectLoopOutcome(engram: Engram, answers: readonly unknown[], errors: readonly string[]): Promise<void> {
  expect(answers).toHaveLength(13);
  expect(answers[0]).toMatchObject({ message: 'Thought recorded.' });
  expect(answers[1]).toMatchObject({ count: 1, results: [{ kind: 'decision', text: 'We chose PostgreSQL for billing' }] });
  expect(answers[3]).toMatchObject({ key: 'billing-db', created: true });
  expect(answers[6]).toEqual({ error: 'search_memory: query is empty: say what to search for' });
  expect(answers[7]).toEqual({ error: 'write_memory: content must be a string' });
  expect(answers[9]).toMatchObject({ count: 1, block: CSV_BLOCK });
  expect(answers[10]).toMatchObject({ text: '1. find the billing DB\n2. noted it' });
  expect(answers[11]).toMatchObject({ mode: 'clear', text: '' });
  expect(errors).toEqual(['search_memory: query is empty: say what to search for', 'write_memory: content must be a string']);
  expect(await engram.getByKey('broken', 'project:billing')).toBeNull();
  expect((await engram.getByKey('billing-db', 'project:billing'))?.text).toBe(
    'We chose PostgreSQL for billing\nConfirmed by Alice.',
  );
  expect(await engram.getByKey(SCRATCHPAD_KEY, 'project:billing')).toBeNull();
  expect((await engram.getByKey(SESSION_HANDOFF_KEY, 'project:billing'))?.text).toBe(
    'Billing DB is PostgreSQL; CSV parser exists.',
  );
  expect((await engram.list({ kinds: ['thought'] })).map((memory) => memory.sessionId)).toEqual(['chat-42']);
  // Every write is logged, the tools' in their own names; the decision was remembered before the loop.
  expect((await engram.activity()).map((line) => line.action)).toEqual([
    'remember',
    'think',
    'scratch_note',
    'write_memory',
    'write_memory',
    'scratch_note',
    'store_solution',
    'scratch_note',
    'write_session_handoff',
  ]);
}

async function engineWithADecision(): Promise<Engram> {
  const engram = await openTestEngram();
  await engram.remember({ text: 'We chose PostgreSQL for billing', kind: 'decision', scope: 'project:billing' });
  return engram;
}

describe('a scripted agent loop', () => {
  it('calls every tool through OpenAI Chat Completions tool calls', async () => {
    const engram = await engineWithADecision();
    const tools = createMemoryTools({ engram, sessionId: 'chat-42', scope: 'project:billing' });
    const request = { model: 'scripted', tools: toOpenAiTools(tools), messages: [] as unknown[] };
    // What the API would be sent: plain JSON with a function tool per memory tool.
    expect(JSON.parse(JSON.stringify(request.tools))).toEqual(request.tools);
    expect(request.tools.map((tool) => tool.function.name)).toHaveLength(7);

    const answers: unknown[] = [];
    const errors: string[] = [];
    for (let turn = 0; ; turn++) {
      const calls = script(answers);
      // The response body of POST /v1/chat/completions, as the API sends it.
      const response = JSON.parse(
        JSON.stringify({
          id: `chatcmpl-${turn}`,
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              finish_reason: calls ? 'tool_calls' : 'stop',
              message: {
                role: 'assistant',
                content: calls ? null : 'Billing uses PostgreSQL.',
                tool_calls: calls?.map((call, i) => ({
                  id: `call_${turn}_${i}`,
                  type: 'function',
                  function: { name: call.name, arguments: JSON.stringify(call.args) },
                })),
              },
            },
          ],
        }),
      ) as { choices: [{ message: { tool_calls?: { id: string; function: { name: string; arguments: string } }[] } }] };
      const message = response.choices[0].message;
      request.messages.push(message);
      if (!message.tool_calls) break;
      for (const call of message.tool_calls) {
        const reply: OpenAiToolMessage = await runOpenAiToolCall(tools, call);
        expect(reply).toMatchObject({ role: 'tool', tool_call_id: call.id });
        request.messages.push(reply);
        const answer = JSON.parse(reply.content) as { error?: string };
        answers.push(answer);
        if (answer.error) errors.push(answer.error);
      }
    }
    await expectLoopOutcome(engram, answers, errors);
  });

  it('calls every tool through Anthropic Messages tool_use blocks', async () => {
    const engram = await engineWithADecision();
    const tools = createMemoryTools({ engram, sessionId: 'chat-42', scope: 'project:billing' });
    const anthropicTools = toAnthropicTools(tools);
    expect(anthropicTools.every((tool) => tool.input_schema.type === 'object')).toBe(true);

    const messages: unknown[] = [];
    const answers: unknown[] = [];
    const errors: string[] = [];
    for (let turn = 0; ; turn++) {
      const calls = script(answers);
      // The response body of POST /v1/messages: tool inputs arrive as parsed objects.
      const response = JSON.parse(
        JSON.stringify({
          id: `msg_${turn}`,
          type: 'message',
          role: 'assistant',
          stop_reason: calls ? 'tool_use' : 'end_turn',
          content: calls
            ? calls.map((call, i) => ({
                type: 'tool_use',
                id: `toolu_${turn}_${i}`,
                name: call.name,
                input: call.args,
              }))
            : [{ type: 'text', text: 'Billing uses PostgreSQL.' }],
        }),
      ) as { stop_reason: string; content: (AnthropicToolUse | { type: 'text' })[] };
      messages.push({ role: 'assistant', content: response.content });
      if (response.stop_reason !== 'tool_use') break;
      const results: AnthropicToolResult[] = [];
      for (const block of response.content) {
        if (block.type !== 'tool_use') continue;
        const result = await runAnthropicToolUse(tools, block);
        expect(result.tool_use_id).toBe(block.id);
        results.push(result);
        if (result.is_error) {
          errors.push(result.content);
          answers.push({ error: result.content });
        } else {
          answers.push(JSON.parse(result.content));
        }
      }
      messages.push({ role: 'user', content: results });
    }
    // The one difference: Anthropic's malformed call is a string where an object belongs.
    errors[1] =
      errors[1] === 'write_memory takes a JSON object of arguments (got a string)'
        ? 'the arguments of write_memory are not valid JSON: send a JSON object'
        : (errors[1] as string);
    answers[7] = { error: errors[1] };
    await expectLoopOutcome(engram, answers, errors);
  });
});

describe('the other shapes', () => {
  it('serves the tools over MCP: tools/list definitions and tools/call results', async () => {
    const engram = await engineWithADecision();
    const tools = createMemoryTools({ engram, sessionId: 'chat-42', scope: 'project:billing' });
    const list = toMcpTools(tools);
    expect(list.map((tool) => tool.name)).toContain('recall_solution');
    expect(list[0]).toEqual({ name: 'search_memory', description: tools[0]?.description, inputSchema: tools[0]?.inputSchema });

    const found = await callMcpTool(tools, { name: 'search_memory', arguments: { query: 'PostgreSQL' } });
    expect(found.isError).toBeUndefined();
    expect(JSON.parse(found.content[0]?.text ?? '')).toEqual(found.structuredContent);
    expect(found.structuredContent).toMatchObject({ count: 1 });

    expect(await callMcpTool(tools, { name: 'think', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'think: thought is required: write the reasoning to keep' }],
      isError: true,
    });
    expect(await callMcpTool(tools, { name: 'forget_everything' })).toMatchObject({
      content: [{ type: 'text', text: expect.stringMatching(/^unknown tool forget_everything: choose from search_memory/) }],
      isError: true,
    });
  });

  it('is a Vercel AI SDK tool set: zod input schemas and execute functions keyed by name', async () => {
    const engram = await engineWithADecision();
    const set = toAiSdkTools(createMemoryTools({ engram, sessionId: 'chat-42', scope: 'project:billing' }));
    expect(Object.keys(set)).toHaveLength(7);
    const write = set.write_memory;
    expect(write?.inputSchema.safeParse({ key: 'k', content: 'v' }).success).toBe(true);
    expect(write?.inputSchema.safeParse({ key: 'k' }).success).toBe(false);
    // The SDK calls execute(args, options); the options are ignored.
    await (write?.execute as (args: unknown, options: unknown) => Promise<unknown>)(
      { key: 'k', content: 'from the SDK' },
      { toolCallId: 'call_1', messages: [] },
    );
    expect((await engram.getByKey('k', 'project:billing'))?.text).toBe('from the SDK');
  });

  it('answers arguments that are not valid JSON with an error the model can act on', async () => {
    const engram = await engineWithADecision();
    const tools = createMemoryTools({ engram, scope: 'project:billing' });
    const reply = await runOpenAiToolCall(tools, {
      id: 'call_9',
      type: 'function',
      function: { name: 'write_memory', arguments: '{"key": "broken", "content": ' },
    });
    expect(reply).toEqual({
      role: 'tool',
      tool_call_id: 'call_9',
      content: '{"error":"the arguments of write_memory are not valid JSON: send a JSON object"}',
    });
    expect(await engram.getByKey('broken', 'project:billing')).toBeNull();
  });

  it('answers a Responses API function call with a function_call_output', async () => {
    const engram = await engineWithADecision();
    const tools = createMemoryTools({ engram, scope: 'project:billing' });
    expect(toOpenAiTools(tools, { api: 'responses' })[0]).toMatchObject({
      type: 'function',
      name: 'search_memory',
      strict: false,
    });
    const output = await runOpenAiToolCall(tools, {
      type: 'function_call',
      call_id: 'fc_1',
      name: 'search_memory',
      arguments: '{"query":"PostgreSQL"}',
    });
    expect(output).toMatchObject({ type: 'function_call_output', call_id: 'fc_1' });
    expect(JSON.parse(output.output)).toMatchObject({ count: 1 });
  });
});
