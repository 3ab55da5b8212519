/**
 * The vector search part of a Store: nearest neighbours and similarities among the vectors the
 * memories part wrote with each memory.
 */
import type { MemoryFilter } from './memory-filter.js';

/** A vector hit: cosine similarity in [-1, 1]. */
export interface VectorHit {
  id: string;
  similarity: number;
}

/** Options of a vector search. */
export interface VectorSearchOptions {
  /** Search exhaustively rather than approximately. @default false */
  exact?: boolean;
  /** Allow fewer than `limit` results rather than an exhaustive search. @default false */
  bounded?: boolean;
}

/** Searching and reading the memories' vectors. */
export interface VectorSearch {
  /**
   * Nearest neighbours of `vector` among memories matching `filter`, by cosine similarity.
   * Large stores may answer approximately; `exact: true` asks for an exhaustive search, and
   * `bounded: true` allows fewer than `limit` results rather than an exhaustive search when
   * the filter admits few of the approximate candidates (for "is anything of this kind close?").
   */
  searchVector(filter: MemoryFilter, vector: Float32Array, limit: number, options?: VectorSearchOptions): Promise<VectorHit[]>;
  /** Cosine similarity of `vector` to each listed memory that has a vector (others are left out). */
  vectorSimilarities(tenant: string, ids: readonly string[], vector: Float32Array): Promise<Map<string, number>>;
  /** The stored vectors of these memories; memories without one are left out. */
  getVectors(tenant: string, ids: readonly string[]): Promise<Map<string, Float32Array>>;
}
