/**
 * A database remembers which embedder made its vectors. Opening it with another one is
 * refused with a pointer to `engram reindex`, which then makes it searchable again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { dbIn, expectOneLineError, LEXICAL, makeTempDir, readDatabase, runCli, runJson, runOk } from './helpers.js';

describe('a database written by a different embedder', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it('refuses add and search with the local model until reindex, then searches by meaning', async () => {
    await runOk(['add', 'We chose PostgreSQL for billing', '--kind', 'decision'], { cwd: dir, env: LEXICAL });
    const before = readDatabase(dbIn(dir, '.engram/engram.db'));

    const add = await runCli(['add', 'Deploys happen on Tuesdays'], { cwd: dir });
    expectOneLineError(add, /engram reindex/);
    const search = await runCli(['search', 'which database for billing'], { cwd: dir });
    expectOneLineError(search, /engram reindex/);
    expect(readDatabase(dbIn(dir, '.engram/engram.db'))).toEqual(before);

    const reindexed = await runJson<{ memories: number; embedder: string; dimensions: number }>(['reindex'], { cwd: dir });
    expect(reindexed.memories).toBe(1);
    expect(reindexed.embedder).toMatch(/^local:/);
    expect(reindexed.dimensions).toBeGreaterThan(0);

    const hits = await runJson<{ memory: { text: string } }[]>(['search', 'which database for billing'], { cwd: dir });
    expect(hits[0]?.memory.text).toBe('We chose PostgreSQL for billing');
    await runOk(['add', 'Deploys happen on Tuesdays'], { cwd: dir });

    // Now the lexical-only configuration is the stranger.
    expectOneLineError(await runCli(['search', 'billing'], { cwd: dir, env: LEXICAL }), /engram reindex/);
  });
});
