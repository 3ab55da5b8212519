/**
 * Calibrated relevance: one number in [0, 1] that means the same thing for every query, so
 * the seeds' thresholds (0.6 for active recall, 0.5 for intrusive recall) behave as intended.
 *
 * The raw hybrid score is `lexicalWeight × words + (1 − lexicalWeight) × cosine`, where
 * `words = 0.8 × coverage + 0.2 × bm25 / (bm25 + 4)`: coverage is the share of the query's
 * content words found in the memory (for memories indexed with context, half from the memory
 * alone, half with its context), and the saturated BM25 adds how rare the shared words are.
 * A monotone piecewise-linear curve maps the raw score to relevance. Its anchors come from the
 * LoCoMo development slice with the local model (999 questions, 2,760 turns; 3,000 random
 * question–turn pairs from different conversations as "unrelated"):
 *
 *   raw 0.29 = the 99th percentile of unrelated pairs          → relevance 0.5
 *   raw 0.395 = the 25th percentile of evidence turns          → relevance 0.6
 *   raw 0.70 = the 90th percentile of evidence turns           → relevance 0.9
 *
 * The anchors were read off the coverage-and-cosine score; `engram bench locomo` re-measures
 * the shares with the score as defined here: 91% of evidence turns clear 0.5 and 75% clear
 * 0.6, while 0.7% of unrelated pairs clear 0.5 and 0.07% clear 0.6.
 *
 * Graph-aware recall (graph-recall.ts) adds its small amounts to the raw score before the
 * curve, so its hits are judged on the same scale: with it, 97% of evidence turns clear 0.5
 * and 88% clear 0.6, and unrelated pairs stay at 0.7% and 0.1%.
 *
 * The curve is the same for every store; store-calibration.ts then takes off, per search, what
 * the store's own sample says the query's scores are inflated by (on another corpus unrelated
 * pairs score higher: LongMemEval's 2.8% at 0.5 came down to 1.5% with it).
 */

/** Share of the word signal that comes from saturated BM25 rather than coverage. */
const BM25_SHARE = 0.2;
/** BM25 at which its saturated value is one half. */
const BM25_HALF = 4;

/** The signals hybrid relevance is made of (a subset of a search hit's signals). */
export interface HybridSignals {
  coverage: number;
  bm25: number | null;
  cosine: number | null;
}

/** The raw hybrid score in [0, 1]; without vectors, the word signal alone. */
export function hybridRawScore(signals: HybridSignals, hasVectors: boolean, lexicalWeight: number): number {
  const words = wordSignal(signals);
  if (!hasVectors) return words;
  return withCosine(lexicalWeight * words, signals.cosine, lexicalWeight);
}

/** The word part of the raw score: coverage and saturated BM25. */
export function wordSignal(signals: Pick<HybridSignals, 'coverage' | 'bm25'>): number {
  return (1 - BM25_SHARE) * signals.coverage + BM25_SHARE * saturatedBm25(signals.bm25);
}

/** BM25 saturated into [0, 1): `bm25 / (bm25 + 4)`, 0 without a full-text match. */
export function saturatedBm25(bm25: number | null): number {
  const value = Math.max(0, bm25 ?? 0);
  return value / (value + BM25_HALF);
}

/**
 * The raw hybrid score from its word part already weighted (`lexicalWeight × wordSignal`) and
 * the cosine: what `hybridRawScore` gives, to the bit, for one whose words were measured first.
 */
export function withCosine(weightedWords: number, cosine: number | null, lexicalWeight: number): number {
  return weightedWords + (1 - lexicalWeight) * Math.max(0, cosine ?? 0);
}

/** (raw score, relevance) points of the curve, increasing in both. */
export const CALIBRATION_CURVE: readonly (readonly [number, number])[] = [
  [0, 0],
  [0.29, 0.5],
  [0.395, 0.6],
  [0.7, 0.9],
  [1, 1],
];

/** Maps a raw hybrid score in [0, 1] onto the calibrated relevance scale. */
export function calibrate(raw: number): number {
  const x = Math.min(1, Math.max(0, raw));
  for (let i = 1; i < CALIBRATION_CURVE.length; i++) {
    const [x1, y1] = CALIBRATION_CURVE[i] as readonly [number, number];
    if (x <= x1) {
      const [x0, y0] = CALIBRATION_CURVE[i - 1] as readonly [number, number];
      return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
    }
  }
  return 1;
}
