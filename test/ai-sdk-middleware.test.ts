/**
 * `engramMiddleware` under the AI SDK's own loop (`generateText`, `streamText`) with its mock
 * model scripted to emit real tool calls, on a real SQLite file with the real local model:
 * the recall block at position 1 once per user message, the nudge after N tool-only steps,
 * and the memory tools offered to the model and run by the middleware.
 */
import { generateText, simulateReadableStream, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { NUDGE_TEXT, RECALL_OPEN } from '../src/context/format.js';
import { openEngram } from '../src/index.js';
import { engramMiddleware } from '../src/surfaces/ai-sdk/index.js';
import type { CallOptions, Content, GenerateResult, StreamPart } from '../src/surfaces/ai-sdk/types.js';
import { freshDatabase, openTestEngram, sharedEmbedder } from './activation-helpers.js';

const USAGE: GenerateResult['usage'] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
let callIds = 0;
const toolCall = (toolName: string, input: Record<string, unknown>): Content => ({
  type: 'tool-call',
  toolCallId: `call_${++callIds}`,
  toolName,
  input: JSON.stringify(input),
});
const text = (value: string): Content => ({ type: 'text', text: value });

/** A model that answers each call with the next step of the script, and records every call. */
function scriptedGenerate(script: Content[][]) {
  const calls: CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls.push(options);
      const content = script[calls.length - 1];
      if (!content) throw new Error(`the script has no step ${calls.length}`);
      const toolCalls = content.some((part) => part.type === 'tool-call');
      return {
        content,
        finishReason: { unified: toolCalls ? 'tool-calls' : 'stop', raw: undefined },
        usage: USAGE,
        warnings: [],
      };
    },
  });
  return { model, calls };
}

function scriptedStream(script: Content[][]) {
  const calls: CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      calls.push(options);
      const content = script[calls.length - 1];
      if (!content) throw new Error(`the script has no step ${calls.length}`);
      const chunks: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      content.forEach((part, index) => {
        if (part.type === 'text') {
          chunks.push({ type: 'text-start', id: `t${index}` });
          for (const word of part.text.split(/(?<= )/)) chunks.push({ type: 'text-delta', id: `t${index}`, delta: word });
          chunks.push({ type: 'text-end', id: `t${index}` });
        } else chunks.push(part as StreamPart);
      });
      const toolCalls = content.some((part) => part.type === 'tool-call');
      chunks.push({ type: 'finish', finishReason: { unified: toolCalls ? 'tool-calls' : 'stop', raw: undefined }, usage: USAGE });
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
  return { model, calls };
}

const systemContents = (options: CallOptions) =>
  options.prompt.flatMap((message) => (message.role === 'system' ? [message.content] : []));

const readFile = tool({
  description: 'Reads a file of the project',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => `contents of ${path}: merge.specificity = 0.9`,
});

describe('engramMiddleware with generateText', () => {
  it('recalls once per user message at position 1 and nudges after N tool-only steps', async () => {
    const { engram } = await openTestEngram({ memory: { intrusive: { every_tool_turns: 2 } } });
    await engram.remember('The merge loop can stall when specificity is too strict; 0.4 works.');
    const { model, calls } = scriptedGenerate([
      [text('Reading the merge config.'), toolCall('read_file', { path: 'merge.yaml' })],
      [text('Reading the merge defaults.'), toolCall('read_file', { path: 'defaults.yaml' })],
      [text('Lower merge.specificity to 0.4.')],
      [text('You are welcome.')],
    ]);
    const wrapped = wrapLanguageModel({ model, middleware: engramMiddleware({ engram, sessionId: 'gen', scope: 'project:x' }) });

    const first = await generateText({
      model: wrapped,
      system: 'You are a careful engineer.',
      prompt: 'The merge job is stuck because the merge loop stalls. Why?',
      tools: { read_file: readFile },
      stopWhen: stepCountIs(10),
    });
    const second = await generateText({
      model: wrapped,
      system: 'You are a careful engineer.',
      messages: [
        { role: 'user', content: 'The merge job is stuck because the merge loop stalls. Why?' },
        { role: 'assistant', content: first.text },
        { role: 'user', content: 'Thanks!' },
      ],
    });

    expect(first.steps).toHaveLength(3);
    expect(first.text).toBe('Lower merge.specificity to 0.4.');
    expect(second.text).toBe('You are welcome.');
    // seed 000: the block is a system message at position 1, in every call of the turn
    for (const call of calls.slice(0, 3)) {
      expect(call.prompt[0]).toEqual({ role: 'system', content: 'You are a careful engineer.' });
      expect(call.prompt[1]?.role).toBe('system');
      expect(systemContents(call)[1]).toContain(RECALL_OPEN);
      expect(systemContents(call)[1]).toContain('The merge loop can stall when specificity is too strict');
    }
    // seed 001: the second tool-only step brings the nudge, after the tool results
    expect(systemContents(calls[1] as CallOptions).some((content) => content.startsWith(NUDGE_TEXT))).toBe(false);
    const third = calls[2] as CallOptions;
    expect(third.prompt.at(-1)).toMatchObject({ role: 'system' });
    expect(third.prompt.at(-2)?.role).toBe('tool');
    expect(systemContents(third).at(-1)).toContain(NUDGE_TEXT);
    // one active recall per user message: two messages, two receipts
    const receipts = await engram.receipts({ sessionId: 'gen', limit: 20 });
    expect(receipts.filter((receipt) => receipt.path === 'active').map((receipt) => receipt.turn)).toEqual([2, 1]);
    expect(receipts.filter((receipt) => receipt.path === 'intrusive')).toHaveLength(1);
    await engram.close();
  });

  it('offers the memory tools when asked and runs the model’s calls to them', async () => {
    const { engram } = await openTestEngram();
    const { model, calls } = scriptedGenerate([
      [toolCall('write_memory', { key: 'billing-database', content: 'Billing stores invoices in PostgreSQL 16.' })],
      [text('Noted: billing uses PostgreSQL 16.')],
    ]);
    const wrapped = wrapLanguageModel({
      model,
      middleware: engramMiddleware({ engram, sessionId: 'tools', scope: 'user:alice', memoryTools: true }),
    });

    const result = await generateText({ model: wrapped, prompt: 'For the record: billing keeps invoices in PostgreSQL 16.' });

    expect(result.text).toBe('Noted: billing uses PostgreSQL 16.');
    expect(calls[0]?.tools?.map((offered) => offered.name)).toEqual(
      expect.arrayContaining(['think', 'search_memory', 'write_memory', 'write_session_handoff', 'scratch_note']),
    );
    // the model's second call reads the tool's result as an ordinary tool message
    expect(calls[1]?.prompt.at(-1)).toMatchObject({
      role: 'tool',
      content: [{ type: 'tool-result', toolName: 'write_memory', output: { type: 'json' } }],
    });
    expect(result.toolResults).toEqual([expect.objectContaining({ toolName: 'write_memory', dynamic: true })]);
    const hits = await engram.search({ query: 'billing invoices PostgreSQL', scopes: ['user:alice'] });
    expect(hits[0]?.memory.text).toContain('Billing stores invoices in PostgreSQL 16.');
    await engram.close();
  });

  it('refuses a session together with a sessionId, and unknown tool names', async () => {
    const { engram } = await openTestEngram();
    expect(() => engramMiddleware({ engram, session: engram.session(), sessionId: 'x' })).toThrow(
      /either a session or a sessionId/,
    );
    expect(() => engramMiddleware({ engram, memoryTools: ['remember_everything'] })).toThrow(
      /unknown memory tool remember_everything: choose from/,
    );
    await engram.close();
  });
});

describe('engramMiddleware with streamText', () => {
  it('streams recall, memory tools, host tools and the nudge through a multi-step loop', async () => {
    const { engram } = await openTestEngram({ memory: { intrusive: { every_tool_turns: 2 } } });
    await engram.remember('The merge loop can stall when specificity is too strict; 0.4 works.');
    const { model, calls } = scriptedStream([
      [toolCall('think', { thought: 'The merge loop stalls; check the specificity setting first.' })],
      [text('Reading the merge config. '), toolCall('read_file', { path: 'merge.yaml' })],
      [text('Lower merge.specificity to 0.4.')],
    ]);
    const wrapped = wrapLanguageModel({
      model,
      middleware: engramMiddleware({ engram, sessionId: 'stream', memoryTools: ['think'] }),
    });

    const result = streamText({
      model: wrapped,
      system: 'You are a careful engineer.',
      prompt: 'Why does the merge loop stall?',
      tools: { read_file: readFile },
      stopWhen: stepCountIs(5),
    });
    const chunks: string[] = [];
    for await (const chunk of result.textStream) chunks.push(chunk);

    expect(chunks.join('')).toBe('Reading the merge config. Lower merge.specificity to 0.4.');
    expect(chunks.length).toBeGreaterThan(2);
    expect(await result.steps).toHaveLength(2);
    expect(calls).toHaveLength(3);
    for (const call of calls) expect(systemContents(call)[1]).toContain('The merge loop can stall');
    // think and read_file were two tool-only steps: the third call carries the nudge
    expect(systemContents(calls[2] as CallOptions).at(-1)).toContain(NUDGE_TEXT);
    // the think call, run by the middleware, reaches the model as an ordinary tool result
    expect(calls[2]?.prompt.at(-2)).toMatchObject({ role: 'tool', content: [{ toolName: 'think' }, { toolName: 'read_file' }] });
    expect(calls[2]?.prompt.at(-3)).toMatchObject({
      role: 'assistant',
      content: [{ type: 'tool-call', toolName: 'think', providerExecuted: false }, { type: 'text' }, { type: 'tool-call' }],
    });
    const context = await engram.session({ id: 'stream' }).context();
    expect(context.sections.map((section) => section.text).join('\n')).toContain('check the specificity setting first');
    await engram.close();
  });
});

describe('engramMiddleware when things go wrong', () => {
  it('calls the model without recall when recall fails, and says so in one line', async () => {
    let failing = false;
    const embedder = {
      id: sharedEmbedder.id,
      dimensions: sharedEmbedder.dimensions,
      embed: (texts: readonly string[]) =>
        failing ? Promise.reject(new Error('the embedder is down')) : sharedEmbedder.embed(texts),
    };
    const engram = await openEngram({ path: freshDatabase(), embedder });
    await engram.remember('The merge loop can stall when specificity is too strict; 0.4 works.');
    failing = true;
    const logged: string[] = [];
    const { model, calls } = scriptedGenerate([[text('Lower merge.specificity to 0.4.')]]);
    const wrapped = wrapLanguageModel({
      model,
      middleware: engramMiddleware({ engram, sessionId: 'down', log: (line) => logged.push(line) }),
    });

    const result = await generateText({ model: wrapped, system: 'You are terse.', prompt: 'Why does the merge loop stall?' });

    expect(result.text).toBe('Lower merge.specificity to 0.4.');
    expect(systemContents(calls[0] as CallOptions)).toEqual(['You are terse.']);
    expect(logged).toEqual([expect.stringMatching(/^engram middleware: recall failed.*the embedder is down$/)]);
    await engram.close();
  });

  it('cancels the model stream when the consumer cancels', async () => {
    const { engram } = await openTestEngram();
    let cancelled: unknown = null;
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        // a model that keeps talking until told to stop
        stream: new ReadableStream<StreamPart>({
          pull: (controller) => {
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'more ' });
            return new Promise((resolve) => setTimeout(resolve, 5));
          },
          cancel: (reason) => {
            cancelled = reason;
          },
        }),
      }),
    });
    const wrapped = wrapLanguageModel({ model, middleware: engramMiddleware({ engram, sessionId: 'cancel' }) });

    const { stream } = await wrapped.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Talk.' }] }] });
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel('enough');

    expect(cancelled).toBe('enough');
    await engram.close();
  });
});
