/**
 * A person's `engram search` from the terminal is a look, not the agent's recall: it leaves the
 * retrieval cooldown alone, so the agent's `search_memory` (a real `engram mcp` child) scores the
 * memory as it would have. `--record` counts the look as a retrieval, and then the cooldown
 * applies (seed 001), as it does after the agent's own search.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { LEXICAL, makeTempDir, runJson, runOk } from '../cli/helpers.js';
import { callTool, connectStdio } from './helpers.js';

interface ToolHits {
  results: { id: string; relevance: number }[];
}

interface ShownMemory {
  retrievalCount: number;
  lastRetrievedAt: string | null;
}

describe('engram search and the agent’s retrieval cooldown', () => {
  const dirs: (() => void)[] = [];
  afterEach(() => dirs.splice(0).forEach((remove) => remove()));

  /** A new store of two memories; the id of the one about billing. */
  async function store(): Promise<{ dir: string; id: string }> {
    const { dir, remove } = makeTempDir();
    dirs.push(remove);
    const added = await runOk(['add', 'We chose PostgreSQL for billing'], { cwd: dir, env: LEXICAL });
    await runOk(['add', 'Deploys happen on Tuesdays'], { cwd: dir, env: LEXICAL });
    return { dir, id: /^remembered (\S+)/.exec(added)?.[1] as string };
  }

  /** The relevance the agent's search_memory gives the memory `id`, in a new MCP session. */
  async function agentRelevance(dir: string, id: string): Promise<number | undefined> {
    const { client } = await connectStdio(dir);
    try {
      const result = await callTool(client, 'search_memory', { query: 'billing database' });
      const hits = result.structuredContent as unknown as ToolHits;
      return hits.results.find((hit) => hit.id === id)?.relevance;
    } finally {
      await client.close();
    }
  }

  it('leaves it alone, and --record counts the look as a retrieval', async () => {
    const looked = await store();
    expect(await runOk(['search', 'billing database'], { cwd: looked.dir, env: LEXICAL })).toContain('PostgreSQL');
    const shown = await runJson<ShownMemory>(['show', looked.id], { cwd: looked.dir, env: LEXICAL });
    expect(shown).toMatchObject({ retrievalCount: 0, lastRetrievedAt: null });
    const unlowered = await agentRelevance(looked.dir, looked.id);
    expect(unlowered).toBeGreaterThan(0.3);

    const recorded = await store();
    await runOk(['search', 'billing database', '--record'], { cwd: recorded.dir, env: LEXICAL });
    const counted = await runJson<ShownMemory>(['show', recorded.id], { cwd: recorded.dir, env: LEXICAL });
    expect(counted.retrievalCount).toBe(1);
    expect(counted.lastRetrievedAt).not.toBeNull();
    // Seconds after a retrieval the cooldown leaves a few hundredths of the score.
    expect(await agentRelevance(recorded.dir, recorded.id)).toBeLessThan((unlowered as number) / 4);
  });
});
