/**
 * What a search gives back: each hit's memory, its relevance and score, and every signal and
 * factor they were made of, so an operator can see why a hit ranked where it did.
 */
import type { Memory } from '../model/memory.js';
import type { ScoreFactors } from './factors.js';
import type { FusedSignal } from './fused-relevance.js';

/** What was measured between the query and a memory. */
export interface SearchSignals {
  /** BM25 from the full-text index (higher is better); null when no query word matched. */
  bm25: number | null;
  /** Share of the query's content words in the memory (with its context, when it has one). */
  coverage: number;
  /**
   * Cosine similarity of the query's and the memory's embeddings, counted as far as the embedder
   * reads the query (readable-share.ts); null without vectors.
   */
  cosine: number | null;
  /** Seed 004's keyword overlap: shared words ÷ the larger word set. */
  keyword: number;
  /**
   * What graph-aware recall added to the raw hybrid score (see graph-recall.ts): 0 when the
   * query names an entity the store knows but no path reaches this memory; null when the
   * graph was not consulted (no entity named, another mode, reciprocal-rank fusion, or graph
   * recall switched off).
   */
  graph: number | null;
  /**
   * The graph-aware order's fused score (fused-rank.ts) and its search's scale when this search
   * ranked by it — the query names an entity the store knows and vectors are on; null otherwise.
   * Relevance is then `lift(level) × exp(−(best − score) / 22)`, the level lifted toward 1 above
   * 0.6 (fused-relevance.ts), instead of the calibrated raw score.
   */
  fused: FusedSignal | null;
}

/** One result: the memory, its relevance, and every part of its score. */
export interface SearchHit {
  memory: Memory;
  /** The ranking score: the mode's base score × every factor. */
  score: number;
  /**
   * Relevance in [0, 1], on one scale for every query (see calibration.ts); the seeds'
   * thresholds apply to it. In hybrid mode the calibrated fusion less the store's shift
   * (store-calibration.ts); in the other modes the mode's own signal (coverage for bm25, cosine
   * for dense, overlap for keyword).
   */
  relevance: number;
  /**
   * The score before calibration, so an operator can see why a hit cleared or missed a
   * threshold: in hybrid mode the raw hybrid score with the graph's part added (calibration.ts
   * maps it onto relevance); in the other modes the mode's own signal, which relevance equals
   * before the cooldown.
   */
  raw: number;
  /**
   * What the store's own calibration took off this search's relevance (store-calibration.ts):
   * the same for every hit of one search, 0 on a young store, without vectors or outside hybrid mode.
   */
  storeShift: number;
  signals: SearchSignals;
  factors: ScoreFactors;
  /** How the knowledge graph reached this memory ("Caroline → support group"), or null. */
  via: string | null;
}
