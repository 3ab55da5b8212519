/**
 * EngramStore in a real LangGraph.js graph, across processes: a compiled StateGraph
 * (`compile({ store })`) whose nodes write memories through `config.store` in one process, and a
 * second process — a new engine on the same SQLite file, the real local embedding model — whose
 * nodes recall them with `store.search`. Each process runs the built package by its name, as an
 * installed program would (test/fixtures/langgraph/memory-agent.mjs; needs `npm run build`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { openEngram } from '../src/index.js';
import { scopeOfNamespace } from '../src/surfaces/langgraph/index.js';
import { childEnv } from './cli/helpers.js';

const agent = fileURLToPath(new URL('fixtures/langgraph/memory-agent.mjs', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));

interface AgentState {
  user: string;
  message: string;
  recalled: { key: string; text: string; score: number }[];
}

let directory: string;
let file: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'engram-langgraph-graph-'));
  file = path.join(directory, 'agent.db');
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

/** One turn of the agent in its own process. */
async function turn(input: Record<string, unknown>): Promise<AgentState> {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [agent, JSON.stringify(input)], {
    cwd: root,
    env: childEnv({ ENGRAM_DB: file }),
  });
  expect(stderr).toBe('');
  return JSON.parse(stdout) as AgentState;
}

describe('EngramStore in a compiled StateGraph', () => {
  it('keeps what one process’s nodes put, and a second process’s nodes recall it by meaning, best first', async () => {
    const first = await turn({
      user: 'alice',
      message: 'I moved to Lisbon and I am allergic to peanuts.',
      facts: [
        { key: 'home', text: 'Alice lives in Lisbon, Portugal.' },
        { key: 'allergy', text: 'Alice is allergic to peanuts.' },
        { key: 'pet', text: 'Alice has a cat called Miso.' },
      ],
    });
    expect(first.recalled).toEqual([]);

    const second = await turn({ user: 'alice', message: 'Can you suggest a snack? Remember my food allergies.' });
    expect(second.recalled[0]).toMatchObject({ key: 'allergy', text: 'Alice is allergic to peanuts.' });
    expect(second.recalled.map((item) => item.key).sort()).toEqual(['allergy', 'home', 'pet']);
    const scores = second.recalled.map((item) => item.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);

    // Another user's namespace holds none of it.
    const other = await turn({ user: 'bob', message: 'Do I have any allergies?' });
    expect(other.recalled).toEqual([]);
  });

  it('keeps the items as Engram memories in the namespace’s scope, which Engram’s own search finds', async () => {
    await turn({ user: 'alice', message: 'hi', facts: [{ key: 'home', text: 'Alice lives in Lisbon, Portugal.' }] });
    const engram = await openEngram({ path: file });
    try {
      const scope = scopeOfNamespace(['memories', 'alice']);
      expect(scope).toBe('langgraph:memories:alice');
      const [hit] = await engram.search({ query: 'where does Alice live?', scopes: [scope] });
      expect(hit?.memory).toMatchObject({ key: 'home', text: 'Alice lives in Lisbon, Portugal.', data: { learnedFrom: 'hi' } });
    } finally {
      await engram.close();
    }
  });
});
