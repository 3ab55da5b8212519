/**
 * The order of a graph-aware search: one linear score over the signals hybrid search and the
 * graph stage already measured, instead of the hand-set sum of bonuses. Relevance is not
 * touched (it stays the calibrated hybrid score with the graph's amounts, so the seeds'
 * thresholds keep their meaning); only the ranking score is this fused one. It applies when the
 * query names an entity the store knows and vectors are on (the weights were fitted with meaning
 * in the mix); any other search ranks as before.
 *
 * Besides the usual signals it reads three facts the fixed sum could not weigh: where the memory
 * stood in the full-text index's list, how long it is (a longer turn says more), and how well the
 * memories right beside it in its session matched (a question's answer is often the reply to, or
 * the lead-in of, the turn that matches it best; this looks at every candidate's neighbours, not
 * only the best two hits').
 *
 * The weights are a listwise logistic ranker (softmax over each question's candidates, small L2
 * penalty) fitted on conversations 1–3 of the LoCoMo development slice with the local model:
 * of the feature sets and penalties tried, the one with the best recall@10 there that left no
 * question category more than a point lower. Checked on conversations 4–5, which it never saw
 * (`engram bench locomo`; see docs/benchmarks.md). They are constants, the same for every store.
 */

/** What the fused score reads of one candidate. */
export interface FusionFeatures {
  /** Word coverage of the query, in [0, 1]. */
  coverage: number;
  /** BM25 from the full-text index, or null when the memory was not in its list. */
  bm25: number | null;
  /** Cosine similarity with the query (negative counts as 0). */
  cosine: number;
  /** The memory is about an entity the query names (see graph-recall.ts). */
  about: boolean;
  /** A question about time, and the memory carries a resolved date on the path. */
  dated: boolean;
  /** Turns between the memory and the nearest of the best two hits in its session (1 or 2), or null. */
  besideBest: number | null;
  /** 1-based place in the full-text index's list, or null. */
  lexicalRank: number | null;
  /** Characters of the memory's text. */
  length: number;
  /** The best raw hybrid score (graph amounts included) of a candidate right beside it in its session, or 0. */
  neighbourRaw: number;
}

/** The fitted weights, one per feature. */
export const FUSION_WEIGHTS = {
  coverage: 1.54,
  /** Of the saturated BM25, `bm25 / (bm25 + 4)`. */
  bm25: 2.64,
  cosine: 8.48,
  about: 1.52,
  dated: 2.29,
  besideBest: { 1: 0.85, 2: 0.8 },
  /** Of `1 / rank`. */
  lexicalRank: 1.43,
  /** Of `ln(characters) / 5`. */
  length: 6.66,
  neighbourRaw: 4.38,
} as const;

/** BM25 at which its saturated value is one half (as in calibration.ts). */
const BM25_HALF = 4;

/** The fused score of one candidate: higher ranks first. Pure. */
export function fusedScore(f: FusionFeatures): number {
  const w = FUSION_WEIGHTS;
  const bm25 = Math.max(0, f.bm25 ?? 0);
  let score =
    w.coverage * f.coverage +
    w.bm25 * (bm25 / (bm25 + BM25_HALF)) +
    w.cosine * Math.max(0, f.cosine) +
    (f.about ? w.about : 0) +
    (f.dated ? w.dated : 0) +
    w.length * (Math.log(Math.max(1, f.length)) / 5) +
    w.neighbourRaw * f.neighbourRaw;
  if (f.besideBest === 1 || f.besideBest === 2) score += w.besideBest[f.besideBest];
  if (f.lexicalRank !== null) score += w.lexicalRank / f.lexicalRank;
  return score;
}

/** The fused score of a typical best hit (the median on LoCoMo is 19.6): about 1 as a ranking base. */
const FUSED_TYPICAL_BEST = 20;

/**
 * The fused score as a positive ranking base that the factors (recency, scope, exact match,
 * cooldown) multiply as they multiply relevance elsewhere: `exp(score − 20)`, so a factor of
 * 0.95 moves a memory as far as 0.05 less fused score would. Above 0; about 1 for a typical best
 * match (a very strong one can reach a few times that), far below 1 for weak ones.
 */
export function fusedBase(score: number): number {
  return Math.exp(score - FUSED_TYPICAL_BEST);
}
