/**
 * The vector index part of a Store: which embedder the stored vectors belong to, and swapping
 * every vector at once when the embedder changes (a different embedder means a re-index, never
 * vectors of two models side by side).
 */

/** The embedder a database's vectors were made with. */
export interface VectorIndexInfo {
  model: string;
  dimensions: number;
}

/** The embedder of the stored vectors, and re-indexing. */
export interface VectorIndexStore {
  /** The embedder the stored vectors belong to, or null before the first vector. */
  getIndexInfo(): Promise<VectorIndexInfo | null>;
  /** Records the embedder for a database that has no vectors yet. */
  setIndexInfo(info: VectorIndexInfo): Promise<void>;
  /** Replaces every stored vector at once and records the embedder that made them. */
  replaceVectorIndex(info: VectorIndexInfo, vectors: readonly { id: string; vector: Float32Array }[]): Promise<void>;
}
