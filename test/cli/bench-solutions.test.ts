/** `engram bench solutions` runs solution recall with the real model and reports top-1 per similarity. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { makeTempDir, runJson } from './helpers.js';

interface MethodResult {
  top1: number;
  top1Accuracy: number;
  recalled: number;
  wrongRecalls: number;
  unrelatedRecalls: number;
}

describe('engram bench solutions', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it('reports top-1 accuracy for keyword, semantic and hybrid similarity as JSON', async () => {
    const data = path.join(dir, 'pairs.json');
    writeFileSync(
      data,
      JSON.stringify({
        name: 'tiny',
        source: 'test',
        pairs: [
          { stored: 'Write a CSV parser', query: 'Parse a CSV file' },
          { stored: 'Fetch web pages', query: 'Retrieve HTML content' },
        ],
        unrelated: ['Water the office plants'],
      }),
    );
    const result = await runJson<{ data: { pairs: number }; threshold: number; methods: Record<string, MethodResult> }>(
      ['bench', 'solutions', '--data', data],
      { cwd: dir },
    );
    expect(result.data.pairs).toBe(2);
    expect(result.threshold).toBe(0.3);
    expect(Object.keys(result.methods)).toEqual(['keyword', 'semantic', 'hybrid']);
    // Keyword overlap finds the CSV pair only; meaning finds the fetch pair too.
    expect(result.methods.keyword).toMatchObject({ top1: 1, top1Accuracy: 0.5, recalled: 1 });
    expect(result.methods.semantic?.top1).toBe(2);
    expect(result.methods.hybrid?.top1).toBe(2);
  });
});
