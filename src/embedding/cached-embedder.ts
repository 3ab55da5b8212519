/**
 * Wraps an embedder with a persistent cache keyed by model and content hash, so adding the
 * same text again, re-importing an export or re-running a benchmark costs no model time.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import { contentHash, type EmbeddingCache } from '../store/embedding-cache.js';
import type { Embedder } from './embedder.js';

// The cache and its key are the Store's embedding cache part; re-exported for callers that import them from here.
export { contentHash, type EmbeddingCache } from '../store/embedding-cache.js';

/** An embedder that asks `cache` first and only embeds what it has not seen. */
export function withEmbeddingCache(embedder: Embedder, cache: EmbeddingCache): Embedder {
  return {
    id: embedder.id,
    get dimensions() {
      return embedder.dimensions;
    },
    async embed(texts) {
      const hashes = texts.map(contentHash);
      const known = await cache.getCachedEmbeddings(embedder.id, [...new Set(hashes)]);
      const missing = [...new Set(hashes.filter((hash) => !known.has(hash)))];
      if (missing.length > 0) {
        const textOf = new Map(hashes.map((hash, i) => [hash, texts[i] as string]));
        const vectors = await embedder.embed(missing.map((hash) => textOf.get(hash) as string));
        const entries = missing.map((hash, i) => ({ hash, vector: vectors[i] as Float32Array }));
        await cache.putCachedEmbeddings(embedder.id, entries);
        for (const { hash, vector } of entries) known.set(hash, vector);
      }
      return hashes.map((hash) => known.get(hash) as Float32Array);
    },
    ...(embedder.close ? { close: () => (embedder.close as () => Promise<void>)() } : {}),
    ...(embedder.readableShare
      ? { readableShare: (text: string) => (embedder.readableShare as (text: string) => number)(text) }
      : {}),
  };
}
