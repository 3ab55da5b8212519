/**
 * Engram's recall for a Vercel AI SDK agent, by changing one line: wrap the model.
 * Run it with `npx tsx examples/ai-sdk-middleware.ts` (after `npm ci`).
 *
 *   const model = wrapLanguageModel({ model: yourModel, middleware: engramMiddleware({ engram, sessionId }) });
 *
 * The model here is the AI SDK's mock, scripted to emit the tool calls a real model would.
 * Session 1: the user states a fact; the model stores it with Engram's `write_memory` tool, which
 * the middleware offers and runs. Session 2 (a new engine on the same file): the recall block
 * reaches the model at position 1. Session 3: a long tool loop under `streamText`; after five
 * tool-only steps the model is nudged to reflect, with the memories intrusive recall found.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { generateText, simulateReadableStream, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

import { openEngram } from '../src/index.js';
import { engramMiddleware } from '../src/surfaces/ai-sdk/index.js';

type CallOptions = MockLanguageModelV3['doGenerateCalls'][number];
type Step = { text?: string; call?: { name: string; input: Record<string, unknown> } };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
let ids = 0;

/** The scripted model: each call returns the next step; `seen` keeps every prompt it was sent. */
function scriptedModel(script: Step[], seen: CallOptions[] = []) {
  const next = (options: CallOptions) => {
    seen.push(options);
    const step = script[seen.length - 1];
    if (!step) throw new Error('the script ran out of steps');
    return step;
  };
  const finishReason = (step: Step) => ({ unified: step.call ? ('tool-calls' as const) : ('stop' as const), raw: undefined });
  const callOf = (step: Step) =>
    step.call
      ? [
          {
            type: 'tool-call' as const,
            toolCallId: `call_${++ids}`,
            toolName: step.call.name,
            input: JSON.stringify(step.call.input),
          },
        ]
      : [];
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const step = next(options);
      const text = step.text ? [{ type: 'text' as const, text: step.text }] : [];
      return { content: [...text, ...callOf(step)], finishReason: finishReason(step), usage, warnings: [] };
    },
    doStream: async (options) => {
      const step = next(options);
      const text = step.text
        ? [
            { type: 'text-start' as const, id: 't' },
            { type: 'text-delta' as const, id: 't', delta: step.text },
            { type: 'text-end' as const, id: 't' },
          ]
        : [];
      const chunks = [...text, ...callOf(step), { type: 'finish' as const, finishReason: finishReason(step), usage }];
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
}

/** What the model saw as system messages, past the app's own system prompt. */
const injected = (options: CallOptions | undefined) =>
  (options?.prompt ?? []).slice(1).flatMap((message) => (message.role === 'system' ? [message.content] : []));

export async function main(directory = mkdtempSync(path.join(os.tmpdir(), 'engram-ai-sdk-'))): Promise<void> {
  const file = path.join(directory, 'engram.db');
  const system = 'You are a helpful assistant with a long-term memory.';

  // Session 1 — the model stores a fact with Engram's write_memory tool.
  let engram = await openEngram({ path: file });
  const first = await generateText({
    model: wrapLanguageModel({
      model: scriptedModel([
        {
          call: { name: 'write_memory', input: { key: 'billing-database', content: 'Billing keeps invoices in PostgreSQL 16.' } },
        },
        { text: 'Noted: billing uses PostgreSQL 16.' },
      ]),
      middleware: engramMiddleware({ engram, sessionId: 'alice-1', scope: 'user:alice', memoryTools: true }),
    }),
    system,
    prompt: 'For the record, our billing service keeps invoices in PostgreSQL 16.',
  });
  console.log(`[session 1] the model called: ${first.toolCalls.map((call) => call.toolName).join(', ')}`);
  console.log(`[session 1] the user saw: ${first.text}`);
  await engram.close();

  // Session 2 — a new engine, as a new process would be: active recall reaches the model.
  engram = await openEngram({ path: file });
  const seen: CallOptions[] = [];
  const second = await generateText({
    model: wrapLanguageModel({
      model: scriptedModel([{ text: 'Billing uses PostgreSQL 16.' }], seen),
      middleware: engramMiddleware({ engram, sessionId: 'alice-2', scope: 'user:alice' }),
    }),
    system,
    prompt: 'Which database does billing use again?',
  });
  console.log(`\n[session 2] position 1 of the prompt:\n${injected(seen[0])[0] ?? 'nothing'}`);
  console.log(`[session 2] the user saw: ${second.text}`);

  // Session 3 — a long tool loop under streamText: the fifth tool-only step brings the nudge.
  await engram.remember({ text: 'The merge loop can stall when specificity is too strict; 0.4 works.', source: 'agent' });
  const loop: CallOptions[] = [];
  const reads: Step[] = Array.from({ length: 5 }, (_, i) => ({
    text: `Reading merge config part ${i + 1} to see why the merge loop stalls. `,
    call: { name: 'read_file', input: { path: `merge-${i + 1}.yaml` } },
  }));
  const result = streamText({
    model: wrapLanguageModel({
      model: scriptedModel([...reads, { text: 'Lowering merge.specificity to 0.4 should unstick it.' }], loop),
      middleware: engramMiddleware({ engram, sessionId: 'alice-3', scope: 'user:alice' }),
    }),
    system,
    prompt: 'The merge job is stuck again. Can you look?',
    tools: {
      read_file: tool({
        description: 'Reads a file of the project',
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path: name }) => `contents of ${name}: merge.specificity = 0.9`,
      }),
    },
    stopWhen: stepCountIs(10),
  });
  let streamed = '';
  for await (const delta of result.textStream) streamed += delta;
  console.log(
    `\n[session 3] model calls: ${loop.length}; the last one ends with:\n${injected(loop.at(-1)).at(-1) ?? 'no nudge'}`,
  );
  console.log(`[session 3] the user saw, streamed: ${streamed.split('. ').at(-1)}`);
  await engram.close();
  rmSync(directory, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
