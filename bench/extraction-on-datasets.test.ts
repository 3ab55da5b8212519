/**
 * Graph extraction over every turn of the development slices in shared/bench (LoCoMo, REALTALK
 * in LoCoMo's layout, LongMemEval-S: user and assistant turns alike), each read from the day it
 * happened: no turn may make it throw, and every date it keeps must be a real day of years
 * 0001–9999. A write never fails on extraction anyway (the engine counts a failure and stores
 * the memory), but a turn that throws here is a turn whose graph is lost.
 *
 * The data is not in the repository: it is read from the `shared/bench` folder beside the
 * checkout (or beside one of its parent folders), where CI and developers have it. Without that
 * folder there is nothing to read, and the tests are skipped, saying so.
 *
 * Cost: ~10,000 turns at 1–15 ms each, ~50 s of one core in all. LongMemEval's turns are long
 * (the extractor reads the first 2,000 characters), so its two halves have files of their own
 * (extraction-on-longmemeval-*-half.test.ts), which vitest runs beside this one.
 */
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { extractionFaults, findBenchFolder, locomoTurns } from './dataset-turns.js';

const bench = findBenchFolder();

// Skipped only where the data is absent: it is not in the repository (see the header).
describe.skipIf(bench === undefined)('graph extraction over the LoCoMo and REALTALK turns (needs shared/bench)', () => {
  it.each(['locomo/locomo-dev.json', 'realtalk/realtalk-dev.json'])('extracts every turn of %s without a fault', async (file) => {
    const turns = await locomoTurns(path.join(bench as string, file));
    expect(turns.length).toBeGreaterThan(1_000);
    expect(extractionFaults(turns)).toEqual([]);
  });
});
