/**
 * The statistics part of a Store: counts across every other part, for `engram stats`. It sits
 * beside them rather than in any one because it reads all of them.
 */
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

/** One tenant's counts. */
export interface StoreStatistics {
  stats(tenant: string): Promise<StoreStats>;
}
