/**
 * Engram as an OpenAI Agents SDK agent's memory: its memory tools as the agent's tools, and recall
 * before each run as the run's `callModelInputFilter`.
 * Run it with `npx tsx examples/openai-agents.ts` (after `npm ci`).
 *
 *   const memory = await engramMemory({ engram, session });
 *   const agent = new Agent({ name, instructions, model, tools: [...memory.tools] });
 *   await run(agent, input, { session, callModelInputFilter: memory.callModelInputFilter });
 *
 * A scripted model stands in for OpenAI's — the SDK's `Model` interface, answering each call
 * with the next step of a script — so the example runs offline; the SDK's own runner executes
 * the tool calls it makes. Conversation 1 asks the agent to remember something and the model
 * calls `write_memory`; conversation 2 runs on a new engine over the same file — a restarted
 * program — and the model finds the memory at position 1 of its input, then calls
 * `search_memory` itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
  Agent,
  type AgentInputItem,
  type AgentOutputItem,
  MemorySession,
  type Model,
  type ModelRequest,
  run,
  setTracingDisabled,
  Usage,
} from '@openai/agents';

import { openEngram } from '../src/index.js';
import { engramMemory } from '../src/surfaces/openai-agents/index.js';

type Step = { call: string; args: Record<string, unknown> } | { text: string };

/** A tool's answer in a line: its message, or the texts it found. */
function summary(answer: string): string {
  const parsed = JSON.parse(answer) as { message?: string; results?: { text: string }[] };
  return parsed.message ?? `${parsed.results?.length ?? 0} found: ${parsed.results?.map((hit) => hit.text).join(' | ')}`;
}

/** A model that plays `script`, one step per call, and shows what it is given. */
function scriptedModel(label: string, script: Step[]): Model {
  let calls = 0;
  const respond = (request: ModelRequest) => {
    const input = request.input as AgentInputItem[];
    const first = input[0];
    if (calls === 0 && first && 'role' in first && first.role === 'system') {
      console.log(`[${label}] position 1 of the model's input:\n${String(first.content)}`);
    }
    for (const item of input.slice(-1)) {
      if ('type' in item && item.type === 'function_call_result' && typeof item.output === 'object' && 'text' in item.output) {
        console.log(`[${label}] ${item.name} answered: ${summary(item.output.text)}`);
      }
    }
    const step = script[calls++];
    if (!step) throw new Error(`the script has no step ${calls}`);
    const output: AgentOutputItem[] =
      'text' in step
        ? [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text }] }]
        : [
            {
              type: 'function_call',
              callId: `call_${calls}`,
              name: step.call,
              arguments: JSON.stringify(step.args),
              status: 'completed',
            },
          ];
    if ('call' in step) console.log(`[${label}] the model calls ${step.call} ${JSON.stringify(step.args)}`);
    return { usage: new Usage(), output };
  };
  return {
    getResponse: async (request) => respond(request),
    getStreamedResponse: () => {
      throw new Error('this example does not stream');
    },
  };
}

// The SDK traces runs to OpenAI unless told not to; this example talks to no service.
setTracingDisabled(true);

const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-openai-agents-'));
const file = path.join(directory, 'agent.db');
const instructions = 'You are the billing team’s assistant. Keep what you learn with write_memory.';

try {
  // Conversation 1: the model keeps a fact with write_memory.
  {
    const engram = await openEngram({ path: file });
    const session = new MemorySession({ sessionId: 'billing-1' });
    const memory = await engramMemory({ engram, session });
    const model = scriptedModel('conversation 1', [
      { call: 'write_memory', args: { key: 'billing-database', content: 'Billing keeps invoices in PostgreSQL 16.' } },
      { text: 'Noted: billing keeps invoices in PostgreSQL 16.' },
    ]);
    const agent = new Agent({ name: 'billing', instructions, model, tools: memory.tools });
    const result = await run(agent, 'Remember: billing keeps invoices in PostgreSQL 16.', {
      session,
      callModelInputFilter: memory.callModelInputFilter,
    });
    console.log(`[conversation 1] the user saw: ${String(result.finalOutput)}`);
    await engram.close();
  }

  // Conversation 2, after a restart: recall at position 1, and a search the model asks for.
  {
    const engram = await openEngram({ path: file });
    const session = new MemorySession({ sessionId: 'billing-2' });
    const memory = await engramMemory({ engram, session });
    const model = scriptedModel('conversation 2', [
      { call: 'search_memory', args: { query: 'billing database' } },
      { text: 'Billing keeps its invoices in PostgreSQL 16.' },
    ]);
    const agent = new Agent({ name: 'billing', instructions, model, tools: memory.tools });
    const result = await run(agent, 'Which database holds the billing invoices?', {
      session,
      callModelInputFilter: memory.callModelInputFilter,
    });
    console.log(`[conversation 2] the user saw: ${String(result.finalOutput)}`);
    await engram.close();
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
