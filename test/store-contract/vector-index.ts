/**
 * The vector index part of the Store contract: recording the embedder of the stored vectors
 * and replacing every vector at once (all or nothing) when the embedder changes. It checks the
 * result through vector search and the vector count of the statistics.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { MemoryEntry, MemoryStore, StoreStatistics, VectorIndexStore, VectorSearch } from '../../src/store/store.js';
import { makeMemory, OTHER_TENANT, TENANT } from '../fixtures/memory.js';
import { EAST, NORTH, unitVector, UP } from '../fixtures/vectors.js';
import { ALL, entry } from './fixtures.js';
import { attempt, idsOf } from './helpers.js';

/** Runs the vector index contract against the store of the current test (see `freshStoreForEachTest`). */
export function vectorIndexContract(current: () => MemoryStore & VectorSearch & VectorIndexStore & StoreStatistics): void {
  let store: MemoryStore & VectorSearch & VectorIndexStore & StoreStatistics;
  beforeEach(() => {
    store = current();
  });
  const insert = (...entries: MemoryEntry[]) => store.commit({ insert: entries });

  describe('the vector index', () => {
    it('has no index info before one is recorded', async () => {
      expect(await store.getIndexInfo()).toBeNull();
    });

    it('records the embedder of an empty database', async () => {
      await store.setIndexInfo({ model: 'tiny-4', dimensions: 4 });

      expect(await store.getIndexInfo()).toEqual({ model: 'tiny-4', dimensions: 4 });

      await store.setIndexInfo({ model: 'tiny-4b', dimensions: 4 });
      expect(await store.getIndexInfo()).toEqual({ model: 'tiny-4b', dimensions: 4 });
    });

    it('replaces every vector with ones of a new dimension and records the new embedder', async () => {
      await store.setIndexInfo({ model: 'tiny-4', dimensions: 4 });
      await insert(
        entry(makeMemory({ id: 'a' }), EAST),
        entry(makeMemory({ id: 'b' }), NORTH),
        entry(makeMemory({ id: 'c' }), UP),
        entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT }), EAST),
      );

      await store.replaceVectorIndex({ model: 'tiny-6', dimensions: 6 }, [
        { id: 'a', vector: unitVector(0, 0, 0, 0, 0, 1) },
        { id: 'b', vector: unitVector(0, 0, 0, 0, 1, 1) },
        { id: 'theirs', vector: unitVector(0, 0, 0, 0, 0, 1) },
      ]);

      expect(await store.getIndexInfo()).toEqual({ model: 'tiny-6', dimensions: 6 });
      const hits = await store.searchVector(ALL, unitVector(0, 0, 0, 0, 0, 1), 10);
      expect(idsOf(hits)).toEqual(['a', 'b']);
      expect(hits[0]?.similarity).toBeCloseTo(1, 5);
      expect(idsOf(await store.searchVector({ tenant: OTHER_TENANT }, unitVector(0, 0, 0, 0, 0, 1), 10))).toEqual(['theirs']);
      expect((await store.stats(TENANT)).vectors).toBe(2);
    });

    it('accepts new memories with vectors of the new dimension after a replacement', async () => {
      await insert(entry(makeMemory({ id: 'a' }), EAST));
      await store.replaceVectorIndex({ model: 'tiny-6', dimensions: 6 }, [{ id: 'a', vector: unitVector(1, 0, 0, 0, 0, 0) }]);

      await insert(entry(makeMemory({ id: 'b' }), unitVector(0, 0, 0, 0, 0, 1)));

      expect(idsOf(await store.searchVector(ALL, unitVector(0, 0, 0, 0, 0, 1), 1))).toEqual(['b']);
    });

    it('keeps the old vectors and embedder when a replacement fails part-way', async () => {
      await store.setIndexInfo({ model: 'tiny-4', dimensions: 4 });
      await insert(entry(makeMemory({ id: 'a' }), EAST), entry(makeMemory({ id: 'b' }), NORTH));

      // The second vector does not fit the first one's dimension, so the replacement cannot finish.
      await expect(
        attempt(() =>
          store.replaceVectorIndex({ model: 'tiny-6', dimensions: 6 }, [
            { id: 'a', vector: unitVector(1, 0, 0, 0, 0, 0) },
            { id: 'b', vector: NORTH },
          ]),
        ),
      ).rejects.toThrow();

      expect(await store.getIndexInfo()).toEqual({ model: 'tiny-4', dimensions: 4 });
      expect(idsOf(await store.searchVector(ALL, EAST, 10))).toEqual(['a', 'b']);
    });

    it('records the embedder even when the replacement holds no vectors', async () => {
      await insert(entry(makeMemory({ id: 'a' }), EAST));

      await store.replaceVectorIndex({ model: 'tiny-6', dimensions: 6 }, []);

      expect(await store.getIndexInfo()).toEqual({ model: 'tiny-6', dimensions: 6 });
      expect(await store.searchVector(ALL, unitVector(1, 0, 0, 0, 0, 0), 10)).toEqual([]);
    });
  });
}
