/**
 * `engram bench reliability`, small, inside `npm test`: the same sections with real child
 * processes (the built worker, CLI and `engram serve`; `npm test` builds both dist/ and the
 * benchmarks first), at a few seconds each. Every figure must be 0. A first check shows the
 * lost-write count can see a loss at all, so a 0 means something.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openEngram } from 'engram';
import { describe, expect, it } from 'vitest';

import { findLost } from './check-store.js';
import { runConcurrentWriters } from './concurrent.js';
import { runCrashTrials } from './crashes.js';

describe('reliability (small)', () => {
  it('counts an acknowledged write the database does not hold as lost', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-reliability-test-'));
    try {
      const file = path.join(dir, 'engram.db');
      const engram = await openEngram({ path: file, embedder: null });
      const kept = await engram.remember('a memory that was written');
      await engram.close();
      const lost = await findLost(file, [
        { id: kept.id, marker: 'kept', at: 0 },
        { id: '01JD0000000000000000000000', marker: 'never written', at: 0 },
      ]);
      expect(lost.map((entry) => entry.marker)).toEqual(['never written']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(
    'loses no acknowledged write and no index row across kill -9 of the library, CLI and serve',
    { timeout: 90_000 },
    async () => {
      const figures = await runCrashTrials({ trials: 8, modelEvery: 4, seed: 7 });
      expect(figures.problems).toEqual([]);
      expect(figures.trials).toBe(8);
      expect(figures.modelTrials).toBe(2);
      expect(figures.acknowledged).toBeGreaterThan(0);
      expect({
        lostWrites: figures.lostWrites,
        integrityFailures: figures.integrityFailures,
        indexMismatches: figures.indexMismatches,
        writeErrors: figures.writeErrors,
      }).toEqual({ lostWrites: 0, integrityFailures: 0, indexMismatches: 0, writeErrors: 0 });
    },
  );

  it('surfaces no error and misses no memory with three processes writing one file', { timeout: 60_000 }, async () => {
    const figures = await runConcurrentWriters({ workers: 3, durationMs: 3_000, seed: 7 });
    expect(figures.problems).toEqual([]);
    expect(figures.writes).toBeGreaterThan(30);
    expect(figures.searches).toBeGreaterThan(0);
    expect({
      errors: figures.errors,
      lostWrites: figures.lostWrites,
      staleSearches: figures.staleSearches,
      integrityFailures: figures.integrityFailures,
      indexMismatches: figures.indexMismatches,
    }).toEqual({ errors: 0, lostWrites: 0, staleSearches: 0, integrityFailures: 0, indexMismatches: 0 });
  });
});
