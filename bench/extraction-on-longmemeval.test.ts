/**
 * Graph extraction over every turn of the LongMemEval-S development slice in shared/bench, the
 * user's and the assistant's: none may make it throw, and every date it keeps is a real day of
 * years 0001–9999 (see extraction-on-datasets.test.ts, which reads LoCoMo and REALTALK). Its
 * turns are long (the extractor reads the first 2,000 characters of each), so the file is read
 * in two halves, one test each: ~20 s each on an idle 2-core machine, more when it is shared,
 * hence the longer timeout.
 */
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { extractionFaults, findBenchFolder, longMemEvalTurns } from './dataset-turns.js';

const bench = findBenchFolder();

// Skipped only where the data is absent: it is not in the repository (see dataset-turns.ts).
describe.skipIf(bench === undefined)('graph extraction over the LongMemEval-S turns (needs shared/bench)', () => {
  it.each([0, 1])(
    'extracts every turn of half %i of longmemeval-s-dev.json without a fault',
    async (half) => {
      const turns = await longMemEvalTurns(path.join(bench as string, 'longmemeval', 'longmemeval-s-dev.json'));
      expect(turns.length).toBeGreaterThan(5_000);
      const middle = Math.ceil(turns.length / 2);
      expect(extractionFaults(half === 0 ? turns.slice(0, middle) : turns.slice(middle))).toEqual([]);
    },
    180_000,
  );
});
