/**
 * The SQLite store's approximate vector search (binary codes, re-scored exactly), exercised
 * above the size where it takes over from the exact scan.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import type { Memory } from '../src/model/memory.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { EXACT_SCAN_MAX } from '../src/store/sqlite/vector-table.js';
import { FloatVectors } from '../src/store/vector/float-vectors.js';
import { roundToHalf } from '../src/store/vector/half-float.js';
import { QuantizedIndex } from '../src/store/vector/quantized-index.js';
import { makeMemory } from './fixtures/memory.js';
import { gaussian as normal, seededRandom } from './fixtures/random.js';

const DIMENSIONS = 512;
const COUNT = EXACT_SCAN_MAX + 2_000;

const random = seededRandom(11);
const gaussian = () => normal(random);
const unit = (vector: Float32Array) => {
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
};
const centres = Array.from({ length: 50 }, () => unit(Float32Array.from({ length: DIMENSIONS }, gaussian)));
/** Clustered unit vectors, like sentence embeddings, rather than uniform noise. */
const clustered = () => {
  const centre = centres[Math.floor(random() * centres.length)] as Float32Array;
  return unit(centre.map((value) => value + gaussian() / Math.sqrt(DIMENSIONS)));
};

function memory(id: string, scope = 'global'): Memory {
  return makeMemory({ id, tenant: 't', scope, kind: 'note', createdAt: '2026-01-01T00:00:00.000Z' });
}

describe('approximate vector search in SQLite', () => {
  let directory: string;
  let file: string;
  let store: SqliteStore;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'engram-ann-'));
    file = path.join(directory, 'ann.db');
    store = new SqliteStore(file);
    const entries = Array.from({ length: COUNT }, (_, i) => ({
      memory: memory(`m${i}`, i < 10 ? 'small' : 'global'),
      vector: clustered(),
    }));
    await store.commit({ insert: entries });
  });
  afterAll(async () => {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('finds nearly the same top 10 as an exact search', async () => {
    let agreed = 0;
    const queries = 20;
    for (let q = 0; q < queries; q++) {
      const query = clustered();
      const approximate = await store.searchVector({ tenant: 't' }, query, 10);
      const exact = await store.searchVector({ tenant: 't' }, query, 10, { exact: true });
      const truth = new Set(exact.map((hit) => hit.id));
      agreed += approximate.filter((hit) => truth.has(hit.id)).length;
      // Re-scoring is exact, so the similarities reported are true cosines, best first.
      expect(approximate[0]?.similarity).toBeLessThanOrEqual((exact[0]?.similarity ?? 0) + 1e-6);
    }
    expect(agreed / (queries * 10)).toBeGreaterThan(0.9);
  });

  it('searches a narrow scope exactly, whatever the index says', async () => {
    const query = clustered();
    const hits = await store.searchVector({ tenant: 't', scopes: ['small'] }, query, 10);
    expect(hits.map((hit) => hit.id).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `m${i}`).sort());
  });

  it('finds the nearest a filter admits when nearer ones fill the first candidates', async () => {
    const target = clustered();
    const near = (spread: number) => unit(target.map((value) => value + (gaussian() * spread) / Math.sqrt(DIMENSIONS)));
    await store.commit({
      insert: [
        ...Array.from({ length: 40 }, (_, i) => ({ memory: memory(`crowd${i}`), vector: near(0.05) })),
        ...Array.from({ length: 15 }, (_, i) => ({ memory: memory(`wanted${i}`, 'wanted'), vector: near(0.3) })),
      ],
    });
    const hits = await store.searchVector({ tenant: 't', scopes: ['wanted'] }, target, 10);
    const exact = await store.searchVector({ tenant: 't', scopes: ['wanted'] }, target, 10, { exact: true });
    expect(hits.map((hit) => hit.id)).toEqual(exact.map((hit) => hit.id));
    expect(hits).toHaveLength(10);
  });

  describe('when a filter refuses every one of the first candidates', () => {
    const target = clustered();
    const near = (spread: number) => unit(target.map((value) => value + (gaussian() * spread) / Math.sqrt(DIMENSIONS)));
    const kept = { tenant: 't', scopes: ['kept'] };
    const idsOf = (hits: readonly { id: string }[]) => hits.map((hit) => hit.id);

    beforeAll(async () => {
      await store.commit({
        insert: [
          // More refused neighbours than the index's first candidates (600).
          ...Array.from({ length: 800 }, (_, i) => ({ memory: memory(`refused${i}`, 'refused'), vector: near(0.05) })),
          ...Array.from({ length: 40 }, (_, i) => ({ memory: memory(`kept${i}`, 'kept'), vector: near(0.6) })),
        ],
      });
    });

    it('finds the same top 10 as an exact search of what it admits', async () => {
      const hits = await store.searchVector(kept, target, 10);
      expect(idsOf(hits)).toEqual(idsOf(await store.searchVector(kept, target, 10, { exact: true })));
      expect(hits).toHaveLength(10);
    });

    it('keeps the admitted set current as memories enter and leave the filter', async () => {
      await store.searchVector(kept, target, 10); // the filter's set is held from here on
      const newcomer = memory('newcomer', 'kept');
      await store.commit({ insert: [{ memory: newcomer, vector: target }] });
      expect(idsOf(await store.searchVector(kept, target, 10))[0]).toBe('newcomer');

      await store.commit({ update: [{ memory: { ...newcomer, scope: 'refused' } }] });
      expect(idsOf(await store.searchVector(kept, target, 10))).not.toContain('newcomer');

      const returning = memory('refused0', 'kept');
      await store.commit({ update: [{ memory: returning }] });
      expect(idsOf(await store.searchVector(kept, target, 10))[0]).toBe('refused0');

      await store.commit({ update: [{ memory: { ...returning, archivedAt: '2026-01-02T00:00:00.000Z' } }] });
      expect(idsOf(await store.searchVector(kept, target, 10))).not.toContain('refused0');

      await store.purgeMemories('t', ['kept0', 'kept1']);
      const hits = await store.searchVector(kept, target, 10);
      expect(idsOf(hits)).not.toContain('kept0');
      expect(idsOf(hits)).toEqual(idsOf(await store.searchVector(kept, target, 10, { exact: true })));
    });

    it('sees a memory another connection adds to the filter', async () => {
      await store.searchVector(kept, target, 10);
      const other = new SqliteStore(file);
      await other.commit({ insert: [{ memory: memory('from-elsewhere', 'kept'), vector: target }] });
      await other.close();
      expect(idsOf(await store.searchVector(kept, target, 10))[0]).toBe('from-elsewhere');
    });
  });

  describe('a narrower bounded search after a wide one for the same query (a recall decision)', () => {
    const target = clustered();
    const near = (spread: number) => unit(target.map((value) => value + (gaussian() * spread) / Math.sqrt(DIMENSIONS)));
    const wide = { tenant: 't', scopes: ['global', 'tierish'] };
    const narrow = { tenant: 't', scopes: ['tierish'] };

    beforeAll(async () => {
      await store.commit({
        insert: [
          ...Array.from({ length: 60 }, (_, i) => ({ memory: memory(`other${i}`), vector: near(0.2) })),
          ...Array.from({ length: 60 }, (_, i) => ({ memory: memory(`tierish${i}`, 'tierish'), vector: near(0.25) })),
        ],
      });
      // Both filters are used before, so their sets are held, as a session's are.
      for (const filter of [wide, narrow]) await store.searchVector(filter, clustered(), 5);
    });

    it('reads its candidates from the wide ranking and scores them exactly', async () => {
      const ranked = vi.spyOn(QuantizedIndex.prototype, 'nearestTo');
      await store.searchVector(wide, target, 30);
      const hits = await store.searchVector(narrow, target, 10, { bounded: true });
      expect(ranked).toHaveBeenCalledTimes(1); // the narrow search ranked nothing anew
      ranked.mockRestore();

      const exact = await store.searchVector(narrow, target, 10, { exact: true });
      expect(hits.map((hit) => hit.id)).toEqual(exact.map((hit) => hit.id));
      hits.forEach((hit, i) => expect(hit.similarity).toBeCloseTo(exact[i]?.similarity as number, 6));
    });

    it('scores a replaced vector anew, not from the scores kept for the query', async () => {
      const [first] = await store.searchVector(wide, target, 10); // its score is kept for the query
      const id = first?.id as string;
      const replaced = memory(id, id.startsWith('tierish') ? 'tierish' : 'global');
      await store.commit({ update: [{ memory: replaced, vector: near(0.22) }] });
      const found = (await store.searchVector(wide, target, 150)).find((hit) => hit.id === id);
      const truth = (await store.searchVector(wide, target, 150, { exact: true })).find((hit) => hit.id === id);
      expect(found?.similarity).toBeDefined();
      expect(found?.similarity).not.toBeCloseTo(first?.similarity as number, 6);
      expect(found?.similarity).toBeCloseTo(truth?.similarity as number, 6);
    });
  });

  describe('the float vectors held in memory for exact scores', () => {
    /** The same file, every exact score read from it (no float vectors held). */
    const fromFile = (options: { floatVectorBytes: number } = { floatVectorBytes: 0 }) => new SqliteStore(file, options);
    const sample = (n: number) => Array.from({ length: n }, (_, i) => `m${(i * 97) % COUNT}`);

    it('answer with the same bits as the scores and vectors read from the file', async () => {
      const other = fromFile();
      const scored = vi.spyOn(FloatVectors.prototype, 'scores');
      try {
        for (let q = 0; q < 5; q++) {
          const query = clustered();
          const [held, read] = [
            await store.searchVector({ tenant: 't' }, query, 20),
            await other.searchVector({ tenant: 't' }, query, 20),
          ];
          expect(held).toEqual(read);
          expect(await store.vectorSimilarities('t', sample(40), query)).toEqual(
            await other.vectorSimilarities('t', sample(40), query),
          );
        }
        expect(await store.getVectors('t', sample(10))).toEqual(await other.getVectors('t', sample(10)));
        expect(scored).toHaveBeenCalled(); // the held vectors answered, not the file
        scored.mockClear();
        await other.searchVector({ tenant: 't' }, clustered(), 20);
        await other.vectorSimilarities('t', sample(5), clustered());
        expect(scored).not.toHaveBeenCalled();
      } finally {
        scored.mockRestore();
        await other.close();
      }
    });

    it('are not held past their budget: the scores are read from the file', async () => {
      const small = fromFile({ floatVectorBytes: 1_000_000 }); // less than the tenant's vectors (12 MB)
      const scored = vi.spyOn(FloatVectors.prototype, 'scores');
      try {
        const query = clustered();
        expect(await small.searchVector({ tenant: 't' }, query, 20)).toEqual(
          await store.searchVector({ tenant: 't' }, query, 20),
        );
        // Only the store that holds them scored from memory: 1.5 candidates a result.
        expect(scored.mock.calls.reduce((count, [rowids]) => count + rowids.length, 0)).toBe(20 * 1.5);
      } finally {
        scored.mockRestore();
        await small.close();
      }
    });

    it('follow a replaced vector and a purged memory, in this connection and from another', async () => {
      const target = clustered();
      const followed = memory('followed');
      await store.commit({ insert: [{ memory: followed, vector: target }] });
      // The file keeps vectors at half precision: what comes back is the vector rounded once.
      expect((await store.getVectors('t', ['followed'])).get('followed')).toEqual(roundToHalf(target));
      const moved = clustered();
      await store.commit({ update: [{ memory: followed, vector: moved }] });
      expect((await store.getVectors('t', ['followed'])).get('followed')).toEqual(roundToHalf(moved));
      expect((await store.vectorSimilarities('t', ['followed'], moved)).get('followed')).toBeCloseTo(1, 6);

      const other = fromFile();
      const elsewhere = clustered();
      await other.commit({ update: [{ memory: followed, vector: elsewhere }] });
      expect((await store.getVectors('t', ['followed'])).get('followed')).toEqual(roundToHalf(elsewhere));
      await other.purgeMemories('t', ['followed']);
      await other.close();
      expect(await store.vectorSimilarities('t', ['followed'], elsewhere)).toEqual(new Map());
      expect((await store.searchVector({ tenant: 't' }, elsewhere, 5)).map((hit) => hit.id)).not.toContain('followed');
    });
  });

  it('finds a vector added after the index was built', async () => {
    const target = clustered();
    await store.searchVector({ tenant: 't' }, target, 5); // builds the index
    await store.commit({ insert: [{ memory: memory('late'), vector: target }] });
    const [top] = await store.searchVector({ tenant: 't' }, target, 5);
    expect(top?.id).toBe('late');
  });

  it('sees a vector written by another connection to the same file', async () => {
    const target = clustered();
    await store.searchVector({ tenant: 't' }, target, 5);
    const other = new SqliteStore(file);
    await other.commit({ insert: [{ memory: memory('elsewhere'), vector: target }] });
    await other.close();
    const [top] = await store.searchVector({ tenant: 't' }, target, 5);
    expect(top?.id).toBe('elsewhere');
  });

  it('stops finding a purged memory', async () => {
    const target = clustered();
    await store.commit({ insert: [{ memory: memory('doomed'), vector: target }] });
    expect((await store.searchVector({ tenant: 't' }, target, 1))[0]?.id).toBe('doomed');
    await store.purgeMemories('t', ['doomed']);
    expect((await store.searchVector({ tenant: 't' }, target, 5)).map((hit) => hit.id)).not.toContain('doomed');
  });

  it('finds a memory by its new vector once the vector is replaced, and only once', async () => {
    const before = clustered();
    const after = clustered();
    const moved = memory('moved');
    await store.commit({ insert: [{ memory: moved, vector: before }] });
    expect((await store.searchVector({ tenant: 't' }, before, 1))[0]?.id).toBe('moved');
    await store.commit({ update: [{ memory: moved, vector: after }] });
    const hits = await store.searchVector({ tenant: 't' }, after, 20);
    expect(hits[0]?.id).toBe('moved');
    expect(hits[0]?.similarity).toBeCloseTo(1, 5);
    expect(new Set(hits.map((hit) => hit.id)).size).toBe(hits.length);
    expect((await store.searchVector({ tenant: 't' }, before, 5)).map((hit) => hit.id)).not.toContain('moved');
  });

  it('leaves archived memories out', async () => {
    const target = clustered();
    const archived = { ...memory('archived'), archivedAt: '2026-01-02T00:00:00.000Z' };
    await store.commit({ insert: [{ memory: archived, vector: target }] });
    expect((await store.searchVector({ tenant: 't' }, target, 5)).map((hit) => hit.id)).not.toContain('archived');
  });
});
