import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadSolutionPairs } from './solution-pairs.js';

describe('the solution-pairs benchmark data', () => {
  it('has about forty goal paraphrase pairs by default, with its source stated, starting with the seed examples', async () => {
    const data = await loadSolutionPairs(undefined);
    expect(data.pairs.length).toBeGreaterThanOrEqual(40);
    expect(data.unrelated.length).toBeGreaterThanOrEqual(10);
    expect(data.source).toMatch(/^Written for Engram/);
    expect(data.pairs.slice(0, 2)).toEqual([
      { stored: 'Write a CSV parser', query: 'Parse a CSV file' },
      { stored: 'Fetch web pages', query: 'Retrieve HTML content' },
    ]);
  });

  it('reads another file of the same shape, and says what is wrong with a bad one', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-pairs-'));
    try {
      const good = path.join(directory, 'good.json');
      writeFileSync(good, JSON.stringify({ pairs: [{ stored: 'a b', query: 'b c' }] }));
      expect(await loadSolutionPairs(good)).toEqual({
        name: 'solution-pairs',
        source: 'unknown',
        pairs: [{ stored: 'a b', query: 'b c' }],
        unrelated: [],
      });
      const bad = path.join(directory, 'bad.json');
      writeFileSync(bad, JSON.stringify({ pairs: [] }));
      await expect(loadSolutionPairs(bad)).rejects.toThrow(`${bad}: pairs is empty: give at least one { stored, query } pair`);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
