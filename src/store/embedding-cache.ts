/**
 * The embedding cache part of a Store: vectors kept by model and content hash, so the same text
 * is never embedded twice (see `embedding/cached-embedder.ts`). It knows nothing of memories.
 */

/** Where cached vectors live. */
export interface EmbeddingCache {
  /** The cached vectors of these hashes made by `model`; misses are left out. */
  getCachedEmbeddings(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Caches vectors made by `model`, replacing any with the same model and hash. */
  putCachedEmbeddings(model: string, entries: readonly { hash: string; vector: Float32Array }[]): Promise<void>;
}
