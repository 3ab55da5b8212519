/**
 * The Embedder interface: text in, unit-length vectors out. Small on purpose (STYLE.md 1), so
 * the local model, an OpenAI-compatible server or a caller's own model plug in the same way.
 */

export interface Embedder {
  /**
   * A stable name for the model, recorded with the database's vectors: a different id means
   * the stored vectors are not comparable and `engram reindex` is needed.
   */
  readonly id: string;
  /** Length of every vector, or null until the first call tells (remote models). */
  readonly dimensions: number | null;
  /** How many `embed` calls it runs at once to advantage (a worker pool's size). @default 1 */
  readonly concurrency?: number;
  /** One vector per text, in the same order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /**
   * The share of `text` the model has words for, in [0, 1]: 1 when it reads all of it, 0 when it
   * reads none (the local model reads English, and every character its vocabulary lacks — "日本語",
   * "🍕" — is the same unknown token to it, so such texts embed alike). Search counts a query's
   * cosine similarity only this far (retrieval/readable-share.ts). Without it, 1.
   */
  readableShare?(text: string): number;
  /** Releases the model or connections. */
  close?(): Promise<void>;
}

/** Scales `vector` to unit length in place (cosine similarity then is a dot product). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / norm;
  return vector;
}
