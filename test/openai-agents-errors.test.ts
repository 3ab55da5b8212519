/**
 * `engramMemory`'s errors in the OpenAI Agents SDK's conventions: a bad tool argument reaches the
 * model as the tool's output, saying what to fix (the SDK's `errorFunction` convention); a
 * failing Engram — a closed engine, a database file that can no longer be read — lets the run
 * complete without recall and logs one line; a past turn's recall block handed back in the input
 * is left out of the call.
 */
import { closeSync, openSync, readdirSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';

import { Agent, type AgentInputItem, run } from '@openai/agents';
import { describe, expect, it } from 'vitest';

import { NUDGE_TEXT, RECALL_OPEN } from '../src/context/format.js';
import { InvalidInputError, openEngram } from '../src/index.js';
import { engramMemory } from '../src/surfaces/openai-agents/index.js';
import { freshDatabase, openTestEngram } from './activation-helpers.js';
import { scriptedModel, systemTexts, toolOutputs } from './openai-agents-helpers.js';

/** Overwrites the database and its journal with bytes that are no SQLite file, while it is open. */
function spoil(file: string): void {
  const folder = path.dirname(file);
  for (const name of readdirSync(folder).filter((name) => name.startsWith(path.basename(file)))) {
    const target = path.join(folder, name);
    const size = statSync(target).size;
    const fd = openSync(target, 'r+');
    writeSync(fd, Buffer.alloc(size, 7), 0, size, 0);
    closeSync(fd);
  }
}

describe('engramMemory when something goes wrong', () => {
  it('gives a bad tool argument back to the model as the tool’s output, saying what to fix', async () => {
    const { engram } = await openTestEngram();
    const lines: string[] = [];
    const memory = await engramMemory({ engram, sessionId: 'bad-args', log: (line) => lines.push(line) });
    const { model, seen } = scriptedModel([
      { calls: [{ name: 'search_memory', args: { limit: 5 } }] },
      { calls: [{ name: 'write_memory', args: { key: 'x', content: 'y', mode: 'overwrite' } }] },
      { text: 'I will ask again properly.' },
    ]);
    const agent = new Agent({ name: 'a', instructions: 'Be brief.', model, tools: memory.tools });
    const result = await run(agent, 'Look something up.', { callModelInputFilter: memory.callModelInputFilter });
    expect(result.finalOutput).toBe('I will ask again properly.');
    const [search] = toolOutputs(seen[1]?.input ?? []);
    expect(JSON.parse(search?.text ?? '{}')).toEqual({ error: expect.stringMatching(/^search_memory: query\b/) });
    const write = toolOutputs(seen[2]?.input ?? [])[1];
    expect(JSON.parse(write?.text ?? '{}')).toEqual({ error: expect.stringMatching(/^write_memory: mode\b.*replace.*append/) });
    expect(lines).toEqual([]);
    expect(await engram.list({ limit: 10 })).toEqual([]);
    await engram.close();
  });

  it('completes the run without recall when the engine is closed, logging one line, and a memory tool’s call says memory is unavailable', async () => {
    const { engram } = await openTestEngram();
    await engram.remember('The staging database is restored from backup every night.');
    const lines: string[] = [];
    const memory = await engramMemory({ engram, sessionId: 'closed', log: (line) => lines.push(line) });
    await engram.close();
    const { model, seen } = scriptedModel([
      { calls: [{ name: 'search_memory', args: { query: 'staging database' } }] },
      { text: 'I could not check my notes; the staging database is probably restored nightly.' },
    ]);
    const agent = new Agent({ name: 'ops', instructions: 'Be brief.', model, tools: memory.tools });
    const result = await run(agent, 'Is the staging database restored from backup?', {
      callModelInputFilter: memory.callModelInputFilter,
    });
    expect(result.finalOutput).toMatch(/^I could not check my notes/);
    expect(systemTexts(seen[0]?.input ?? [])).toEqual([]);
    expect(seen[0]?.input).toEqual([{ type: 'message', role: 'user', content: 'Is the staging database restored from backup?' }]);
    const [search] = toolOutputs(seen[1]?.input ?? []);
    expect(JSON.parse(search?.text ?? '{}')).toEqual({
      error: expect.stringMatching(/^search_memory could not reach Engram's memory \(.*closed/),
    });
    expect(lines).toEqual([
      expect.stringMatching(/^engram openai-agents: recall failed, the run goes on without it: .*closed/),
      expect.stringMatching(/^engram openai-agents: search_memory failed, the run goes on without it: .*closed/),
    ]);
  });

  it('completes the run without recall when the database file can no longer be read, logging one line', async () => {
    const file = freshDatabase();
    const { engram } = await openTestEngram({}, file);
    await engram.remember('Invoices are archived after seven years.');
    const lines: string[] = [];
    const memory = await engramMemory({ engram, sessionId: 'spoiled', log: (line) => lines.push(line) });
    spoil(file);
    const { model, seen } = scriptedModel([{ text: 'Seven years, I believe.' }]);
    const agent = new Agent({ name: 'billing', instructions: 'Be brief.', model });
    const result = await run(agent, 'When are invoices archived?', { callModelInputFilter: memory.callModelInputFilter });
    expect(result.finalOutput).toBe('Seven years, I believe.');
    expect(systemTexts(seen[0]?.input ?? [])).toEqual([]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^engram openai-agents: recall failed, the run goes on without it: /);
    await engram.close().catch(() => undefined);
  });

  it('leaves a past turn’s recall block and nudge out of the input it is handed', async () => {
    const { engram } = await openTestEngram();
    const memory = await engramMemory({ engram, sessionId: 'stale', log: () => undefined });
    const input: AgentInputItem[] = [
      { type: 'message', role: 'system', content: `${RECALL_OPEN}\nan old block\n</engram-memories>` },
      { type: 'message', role: 'user', content: 'first question' },
      { type: 'message', role: 'system', content: NUDGE_TEXT },
      { type: 'message', role: 'system', content: 'A system note of the program’s own.' },
      { type: 'message', role: 'user', content: 'second question' },
    ];
    const agent = new Agent({ name: 'a' }) as unknown as Parameters<typeof memory.callModelInputFilter>[0]['agent'];
    const filtered = await memory.callModelInputFilter({ modelData: { input, instructions: 'x' }, agent, context: undefined });
    expect(filtered.instructions).toBe('x');
    expect(filtered.input).toEqual([input[1], input[3], input[4]]);
    await engram.close();
  });

  it('refuses options it cannot follow, saying what to pass', async () => {
    const engram = await openEngram({ path: freshDatabase(), embedder: null });
    await expect(engramMemory({ engram, tools: ['search_memory', 'recall'] })).rejects.toThrow(
      /unknown memory tool recall: choose from .*search_memory/,
    );
    await expect(engramMemory({ engram, tools: ['search_memory', 'recall'] })).rejects.toBeInstanceOf(InvalidInputError);
    const only = await engramMemory({ engram, tools: ['search_memory'] });
    expect(only.tools.map((tool) => tool.name)).toEqual(['search_memory']);
    await engram.close();
  });
});
