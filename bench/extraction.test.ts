import { describe, expect, it } from 'vitest';

import { runExtractionBenchmark } from './extraction.js';

describe('bench extraction', () => {
  it('scores the labelled sample and times each memory', async () => {
    const result = await runExtractionBenchmark({ count: 0, log: () => undefined });
    const json = result.json as {
      memories: number;
      score: { speaker: { recall: number }; names: { precision: number; recall: number } };
      latencyMs: { p50: number; p95: number };
    };
    expect(json.memories).toBeGreaterThanOrEqual(60);
    expect(json.score.speaker.recall).toBe(1);
    expect(json.score.names.precision).toBeGreaterThan(0.9);
    expect(Number.isFinite(json.latencyMs.p50) && json.latencyMs.p50 <= json.latencyMs.p95).toBe(true);
    expect(result.table).toMatch(/^names \(any type\)\s+0\.\d{3}\s+0\.\d{3}/m);
  });

  it('says what is wrong with a file that is not a labelled sample', async () => {
    await expect(runExtractionBenchmark({ count: 0, data: 'package.json', log: () => undefined })).rejects.toThrow(
      /has no "items"/,
    );
  });
});
