/**
 * The embedding cache part of the Store contract: vectors kept by model and content hash, the
 * memories' own vectors answering for the text they were made from.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { contentHash, memoryVectorHash } from '../../src/store/embedding-cache.js';
import type { EmbeddingCache, MemoryStore, StoreStatistics, VectorIndexStore } from '../../src/store/store.js';
import { makeMemory } from '../fixtures/memory.js';
import { EAST, NORTH, NORTH_EAST } from '../fixtures/vectors.js';
import { entry } from './fixtures.js';

/** Runs the embedding cache contract against the store of the current test (see `freshStoreForEachTest`). */
export function embeddingCacheContract(current: () => EmbeddingCache & MemoryStore & VectorIndexStore & StoreStatistics): void {
  let store: EmbeddingCache & MemoryStore & VectorIndexStore & StoreStatistics;
  beforeEach(() => {
    store = current();
  });

  describe('the embedding cache', () => {
    it('returns cached embeddings by model and hash, leaving out misses', async () => {
      await store.putCachedEmbeddings('tiny-4', [
        { hash: 'h1', vector: EAST },
        { hash: 'h2', vector: NORTH_EAST },
      ]);

      const found = await store.getCachedEmbeddings('tiny-4', ['h1', 'h2', 'h3']);

      expect([...found.keys()].sort()).toEqual(['h1', 'h2']);
      expect(Array.from(found.get('h1') ?? [])).toEqual(Array.from(EAST));
      expect(Array.from(found.get('h2') ?? [])).toEqual(Array.from(NORTH_EAST));
    });

    it('misses for a different model name', async () => {
      await store.putCachedEmbeddings('tiny-4', [{ hash: 'h1', vector: EAST }]);

      expect((await store.getCachedEmbeddings('tiny-4-v2', ['h1'])).size).toBe(0);
    });

    it('overwrites a cached embedding with the same model and hash', async () => {
      await store.putCachedEmbeddings('tiny-4', [{ hash: 'h1', vector: EAST }]);
      await store.putCachedEmbeddings('tiny-4', [{ hash: 'h1', vector: NORTH }]);

      const found = await store.getCachedEmbeddings('tiny-4', ['h1']);

      expect(Array.from(found.get('h1') ?? [])).toEqual(Array.from(NORTH));
    });

    it('answers from a stored memory’s own vector, for the model that made it, and keeps no copy', async () => {
      await store.setIndexInfo({ model: 'tiny-4', dimensions: 4 });
      const plain = makeMemory({ id: 'plain', text: 'the billing service moved to Go' });
      const withContext = makeMemory({ id: 'turn', text: 'it did', context: 'did the deploy pass?' });
      await store.commit({ insert: [entry(plain, NORTH_EAST), entry(withContext, EAST)] });

      const found = await store.getCachedEmbeddings('tiny-4', [
        memoryVectorHash(plain),
        memoryVectorHash(withContext),
        contentHash(withContext.text), // the memory's text alone did not make its vector
      ]);

      expect([...found.keys()].sort()).toEqual([memoryVectorHash(plain), memoryVectorHash(withContext)].sort());
      expect(memoryVectorHash(plain)).toBe(contentHash(plain.text));
      expect(Array.from(found.get(memoryVectorHash(withContext)) ?? [])).toEqual(Array.from(EAST));
      // Stored at the store's precision: within a half-precision step of what was given.
      found.get(memoryVectorHash(plain))?.forEach((value, i) => expect(value).toBeCloseTo(NORTH_EAST[i] as number, 3));
      expect((await store.getCachedEmbeddings('tiny-4-v2', [memoryVectorHash(plain)])).size).toBe(0);
      expect((await store.stats(plain.tenant)).cachedEmbeddings).toBe(0);
    });
  });
}
