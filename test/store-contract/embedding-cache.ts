/**
 * The embedding cache part of the Store contract: vectors kept by model and content hash.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { EmbeddingCache } from '../../src/store/store.js';
import { EAST, NORTH, NORTH_EAST } from '../fixtures/vectors.js';

/** Runs the embedding cache contract against the store of the current test (see `freshStoreForEachTest`). */
export function embeddingCacheContract(current: () => EmbeddingCache): void {
  let store: EmbeddingCache;
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
  });
}
