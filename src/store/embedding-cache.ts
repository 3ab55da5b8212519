/**
 * The embedding cache part of a Store: vectors kept by model and content hash, so the same text
 * is never embedded twice (see `embedding/cached-embedder.ts`). A store answers from the
 * memories' own vectors first: each is kept with the hash of what it was made from
 * (`memoryVectorHash`), so no vector is kept twice (docs/decisions/bytes-per-memory.md).
 */
import { createHash } from 'node:crypto';

/** Where cached vectors live. */
export interface EmbeddingCache {
  /** The cached vectors of these hashes made by `model`; misses are left out. */
  getCachedEmbeddings(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Caches vectors made by `model`, replacing any with the same model and hash. */
  putCachedEmbeddings(model: string, entries: readonly { hash: string; vector: Float32Array }[]): Promise<void>;
}

/** The cache key of a text: SHA-256 of its UTF-8 bytes, hex. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The cache key of a memory's vector: its text's `contentHash` when it has no context (its
 * vector is its text's), else a hash of both that no text's hash is (its vector mixes two).
 */
export function memoryVectorHash(memory: { text: string; context: string | null }): string {
  return memory.context === null
    ? contentHash(memory.text)
    : contentHash(`\u0000context\u0000${memory.context}\u0000${memory.text}`);
}

/**
 * The 64 bits of a hash a store keeps beside a vector (its first 16 hex digits, as a signed
 * integer), or null for a key that is no SHA-256 hex.
 */
export function storedHashKey(hash: string): bigint | null {
  return /^[0-9a-f]{64}$/.test(hash) ? BigInt.asIntN(64, BigInt(`0x${hash.slice(0, 16)}`)) : null;
}

/** The key a store keeps beside a memory's vector: `storedHashKey` of its `memoryVectorHash`. */
export function memoryVectorKey(memory: { text: string; context: string | null }): bigint {
  return storedHashKey(memoryVectorHash(memory)) as bigint;
}
