/**
 * Solution recall (seed 004) through the tools, against a real SQLite file: the seed's worked
 * example exactly, failures as what not to repeat, and — with the real local model — the
 * paraphrase pair keyword overlap misses.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { createMemoryTools, type MemoryTool, recallSolutions, storeSolution } from '../src/entries/tools.js';
import { createLocalEmbedder, type Engram } from '../src/index.js';
import { openTestEngram, rejection } from './tools-helpers.js';

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

interface RecallResult {
  count: number;
  block: string | null;
  solutions: { goal: string; similarity: number; status: string }[];
}

function tools(engram: Engram) {
  const all = createMemoryTools({ engram, sessionId: 's1' });
  const call = (name: string, args: unknown) => (all.find((tool) => tool.name === name) as MemoryTool).execute(args);
  return {
    store: (args: Record<string, unknown>) => call('store_solution', args),
    recall: (args: Record<string, unknown>) => call('recall_solution', args) as Promise<RecallResult>,
  };
}

const csvSolution = {
  goal: 'Write a CSV parser',
  approach: 'Used fs.readFileSync, split by newlines.',
  outcome: 'Working script',
  confidence: 90,
};

describe('the worked example of seed 004', () => {
  it('"Write a CSV parser" vs "Parse a CSV file" is a 33% match, rendered as the seed shows', async () => {
    const engram = await openTestEngram();
    const { store, recall } = tools(engram);
    await store(csvSolution);
    const result = await recall({ goal: 'Parse a CSV file', similarity: 'keyword' });
    expect(result.count).toBe(1);
    expect(result.solutions[0]).toMatchObject({ goal: 'Write a CSV parser', similarity: 33, status: 'succeeded' });
    expect(result.block).toBe(CSV_BLOCK);
  });

  it('stores the four fields in the memory data, as a solution with the goal as its text', async () => {
    const engram = await openTestEngram();
    const { store } = tools(engram);
    const { id } = (await store(csvSolution)) as { id: string };
    expect(await engram.get(id)).toMatchObject({
      kind: 'solution',
      text: 'Write a CSV parser',
      sessionId: 's1',
      data: { ...csvSolution, status: 'succeeded' },
    });
    expect((await engram.activity()).map((line) => [line.action, line.summary])).toEqual([
      ['store_solution', 'solved: Write a CSV parser'],
    ]);
  });

  it('finds nothing below the threshold, and says so', async () => {
    const engram = await openTestEngram();
    const { store, recall } = tools(engram);
    await store(csvSolution);
    expect(await recall({ goal: 'Fetch web pages', similarity: 'keyword' })).toMatchObject({
      count: 0,
      block: null,
      solutions: [],
    });
  });

  it('reads the threshold from [solutions] threshold', async () => {
    const engram = await openTestEngram({ config: { solutions: { threshold: 0.5 } } });
    await storeSolution(engram, csvSolution);
    expect(await recallSolutions(engram, 'Parse a CSV file', { similarity: 'keyword' })).toEqual([]);
    expect(await recallSolutions(engram, 'Write a CSV parser quickly', { similarity: 'keyword' })).toHaveLength(1);
  });

  it('shows a failed attempt as what not to repeat, next to what worked', async () => {
    const engram = await openTestEngram();
    const { store, recall } = tools(engram);
    await store(csvSolution);
    await store({
      goal: 'Write a CSV parser for quoted fields',
      approach: 'Split every line on commas.',
      outcome: 'Quoted commas broke the columns',
      confidence: 80,
      status: 'failed',
    });
    const result = await recall({ goal: 'Write a CSV parser', similarity: 'keyword' });
    expect(result.solutions.map((solution) => [solution.goal, solution.status])).toEqual([
      ['Write a CSV parser', 'succeeded'],
      ['Write a CSV parser for quoted fields', 'failed'],
    ]);
    expect(result.block).toContain(
      [
        '### RECALL: Similar Task Failed Before',
        'Similarity: 60%',
        'Prior Goal: Write a CSV parser for quoted fields',
        'What was tried: Split every line on commas.',
        'Outcome: FAILED: Quoted commas broke the columns',
        'Confidence: 80%',
        'Do not repeat this approach: it failed before. Try something different.',
        '### END RECALL',
      ].join('\n'),
    );
  });

  it('without an embedder, hybrid falls back to words and semantic is refused with a way out', async () => {
    const engram = await openTestEngram();
    const { store, recall } = tools(engram);
    await store(csvSolution);
    expect((await recall({ goal: 'Parse a CSV file' })).block).toBe(CSV_BLOCK); // the default, hybrid
    expect((await rejection(recall({ goal: 'Parse a CSV file', similarity: 'semantic' }))).message).toBe(
      'semantic similarity needs an embedder, and this engine has none: use similarity keyword',
    );
  });
});

describe('semantic and hybrid similarity, with the local model (seed 004 v2)', () => {
  let engram: Engram;
  beforeAll(async () => {
    engram = await openTestEngram({ embedder: createLocalEmbedder() }, 'file');
    await storeSolution(engram, csvSolution);
    await storeSolution(engram, {
      goal: 'Fetch web pages',
      approach: 'Used fetch() with a timeout and cheerio to read the HTML.',
      outcome: 'Crawler module, 30 lines',
      confidence: 85,
    });
  });

  it('keyword overlap misses "Retrieve HTML content" vs "Fetch web pages", as the seed says', async () => {
    expect(await recallSolutions(engram, 'Retrieve HTML content', { similarity: 'keyword' })).toEqual([]);
  });

  it.each(['semantic', 'hybrid'] as const)('%s similarity finds it first, above the threshold', async (similarity) => {
    const [best] = await recallSolutions(engram, 'Retrieve HTML content', { similarity });
    expect(best?.solution.goal).toBe('Fetch web pages');
    expect(best?.similarity).toBeGreaterThanOrEqual(0.3);
  });

  it('hybrid still ranks the worked example first, more sure than keyword alone', async () => {
    const [best] = await recallSolutions(engram, 'Parse a CSV file', { similarity: 'hybrid' });
    expect(best?.solution.goal).toBe('Write a CSV parser');
    expect(best?.similarity).toBeGreaterThan(1 / 3);
  });
});
