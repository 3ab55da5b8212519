/**
 * Migration 14 against a real file of schema 13: the tenant's index over the vectors holds each
 * code's prefix, a new process opens its vector index from those prefixes, its first search
 * reads the entries of a fraction of the vectors, and it ranks exactly as the index computed
 * from the vectors did. A code too short for its prefix leaves its vector to be read whole.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { makeMemory } from '../../../test/fixtures/memory.js';
import { clusteredVectors, seededRandom } from '../../../test/fixtures/random.js';
import { QuantizedIndex } from '../vector/quantized-index.js';
import { LATEST_VERSION } from './migrations.js';
import { CODE_PREFIX_INDEX, CODE_PREFIX_SCHEMA } from './schema-code-prefixes.js';
import { SqliteStore } from './sqlite-store.js';

const directory = mkdtempSync(path.join(tmpdir(), 'engram-schema-code-prefixes-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const DIMENSIONS = 512;
/**
 * Enough that a first search shortlists under an eighth of the index (its 2,400 candidates by the
 * prefixes), so the rest of the entries stay unread.
 */
const MEMORIES = 20_000;
const random = seededRandom(14);

/** Clustered unit vectors, as sentence embeddings are. */
const clustered = clusteredVectors(random, DIMENSIONS, 16);
const queries = Array.from({ length: 8 }, () => clustered());

/** A file of schema 13, as the release before wrote it, and its rankings of `queries` then. */
let schema13File: string;
let rankedBefore: { id: string; similarity: number }[][];
beforeAll(async () => {
  schema13File = path.join(directory, 'schema-13.db');
  const old = new SqliteStore(schema13File, { migrateTo: CODE_PREFIX_SCHEMA - 1 });
  await old.setIndexInfo({ model: 'test:clustered-512', dimensions: DIMENSIONS });
  for (let first = 0; first < MEMORIES; first += 5_000) {
    await old.commit({
      insert: Array.from({ length: 5_000 }, (_, i) => ({
        memory: makeMemory({ id: `m${first + i}`, tenant: 't', text: `memory ${first + i}` }),
        vector: clustered(),
      })),
    });
  }
  rankedBefore = [];
  for (const query of queries) rankedBefore.push(await old.searchVector({ tenant: 't' }, query, 10));
  await old.close();
}, 60_000);

let copies = 0;
function copyOfSchema13(): string {
  const file = path.join(directory, `copy-${++copies}.db`);
  copyFileSync(schema13File, file);
  return file;
}

describe('migration 14: a first search reads the code prefixes and a fraction of the entries', () => {
  it('puts each code’s prefix in the tenant’s index, and ranks as the index computed from the vectors', async () => {
    const store = new SqliteStore(copyOfSchema13());
    const db = store.connection;
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    const indexes = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'memory_embeddings'`)
      .pluck()
      .all();
    expect(indexes).toContain(CODE_PREFIX_INDEX);
    expect(indexes).not.toContain('memory_embeddings_by_tenant');

    const opened = vi.spyOn(QuantizedIndex, 'fromPrefixes');
    try {
      expect(await store.searchVector({ tenant: 't' }, queries[0] as Float32Array, 10)).toEqual(rankedBefore[0]);
      const index = opened.mock.results[0]?.value as QuantizedIndex;
      expect(index.size).toBe(MEMORIES);
      expect(index.whole).toBe(false); // the shortlist's entries read, not every one
      for (const [i, query] of queries.entries())
        expect(await store.searchVector({ tenant: 't' }, query, 10)).toEqual(rankedBefore[i]);
      expect(index.whole).toBe(true); // read in one pass once an eighth had been read a search at a time
      expect(opened).toHaveBeenCalledTimes(1);
    } finally {
      opened.mockRestore();
      await store.close();
    }
  });

  it('reads a vector whose code is too short for its prefix from the vector itself', async () => {
    const file = copyOfSchema13();
    const store = new SqliteStore(file);
    const db = store.connection;
    const target = (rankedBefore[0]?.[0]?.id ?? '') as string;
    const rowid = db.prepare(`SELECT rowid FROM memories WHERE id = ?`).pluck().get(target) as number;
    db.prepare(`UPDATE memory_embeddings SET code = x'0102' WHERE rowid = ?`).run(rowid);
    await store.close();

    const damaged = new SqliteStore(file);
    try {
      expect(await damaged.searchVector({ tenant: 't' }, queries[0] as Float32Array, 10)).toEqual(rankedBefore[0]);
    } finally {
      await damaged.close();
    }
  });
});
