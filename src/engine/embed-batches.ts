/**
 * Embeds many texts in chunks so long jobs (import, reindex) can report progress.
 */
import type { Embedder } from '../embedding/embedder.js';

/** A progress report: `phase` names the step ("embedding", "writing"). */
export interface Progress {
  phase: 'embedding' | 'writing';
  done: number;
  total: number;
}
export type ProgressListener = (progress: Progress) => void;

/** Embeds `texts` `chunkSize` at a time, reporting after each chunk. */
export async function embedInBatches(
  embedder: Embedder,
  texts: readonly string[],
  chunkSize: number,
  onProgress?: ProgressListener,
): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  onProgress?.({ phase: 'embedding', done: 0, total: texts.length });
  for (let start = 0; start < texts.length; start += chunkSize) {
    out.push(...(await embedder.embed(texts.slice(start, start + chunkSize))));
    onProgress?.({ phase: 'embedding', done: out.length, total: texts.length });
  }
  return out;
}
