/**
 * Graph extraction over the second half of the LongMemEval-S development slice's turns, the
 * user's and the assistant's (dataset-turns.ts): none may make it throw, and every date it keeps
 * is a real day of years 0001–9999. The turns are long (the extractor reads the first 2,000
 * characters of each), so each half has its own file and vitest runs them side by side: ~20 s
 * each on an idle 2-core machine, more on a shared one, hence the longer timeout.
 */
import { describe, expect, it } from 'vitest';

import { extractionFaults, findBenchFolder, longMemEvalHalf } from './dataset-turns.js';

// Skipped only where the data is absent: it is not in the repository (see dataset-turns.ts).
describe.skipIf(findBenchFolder() === undefined)('graph extraction over LongMemEval-S (needs shared/bench)', () => {
  it('extracts every turn of the second half of longmemeval-s-dev.json without a fault', async () => {
    const turns = (await longMemEvalHalf(1)) ?? [];
    expect(turns.length).toBeGreaterThan(2_500);
    expect(extractionFaults(turns)).toEqual([]);
  }, 180_000);
});
