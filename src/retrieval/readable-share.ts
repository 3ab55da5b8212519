/**
 * How far a query's cosine similarity counts: as far as the embedder has words for the query
 * (`Embedder.readableShare`). The local model reads English; to it a query of emoji or CJK is a
 * row of one unknown token, and so is every memory written in such characters, so the two score
 * a cosine of 1.00 whatever they say. The cosine is multiplied by the share of the query the
 * model reads: an unreadable query is found by its words alone (its CJK bigrams and emoji are
 * words: text/segmented-words.ts), one the model reads half of counts half its cosine, and an
 * English query all of it. Search signals carry the cosine so counted, and the store's
 * calibration sample scores the query the same way (store-calibration.ts).
 */
import type { Embedder } from '../embedding/embedder.js';

/** The share of `query` the embedder reads, in [0, 1]; 1 without an embedder or one that does not say. */
export function queryReadableShare(embedder: Embedder | null, query: string): number {
  const share = embedder?.readableShare?.(query) ?? 1;
  return Number.isNaN(share) ? 1 : Math.min(1, Math.max(0, share));
}

/** A query's cosine similarity to a memory counted as far as the embedder reads the query; null stays null. */
export function countedCosine(cosine: number | null, readable: number): number | null {
  return cosine === null ? null : cosine * readable;
}
