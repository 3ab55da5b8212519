/**
 * The statistics part of a Store: counts across every other part, for `engram stats`. It sits
 * beside them rather than in any one because it reads all of them.
 */
import type { Kind } from '../model/memory.js';
import type { VectorIndexInfo } from './vector-index-store.js';

/** Counts an operator wants from `engram stats`. */
export interface StoreStats {
  memories: number;
  live: number;
  archived: number;
  superseded: number;
  byKind: Record<string, number>;
  byTier: Record<string, number>;
  byScope: Record<string, number>;
  vectors: number;
  cachedEmbeddings: number;
  index: VectorIndexInfo | null;
  schemaVersion: number;
  /** Bytes on disk, when the backend has a file. */
  sizeBytes: number | null;
}

/** What the counts leave out. */
export interface StatsOptions {
  /**
   * Memories of these kinds count nowhere: not in the counts by state, kind, tier or scope
   * (`vectors` and `cachedEmbeddings` describe the index and stay whole).
   */
  excludeKinds?: readonly Kind[] | undefined;
}

/** One tenant's counts. */
export interface StoreStatistics {
  stats(tenant: string, options?: StatsOptions): Promise<StoreStats>;
}
