/**
 * Relevance in a search the graph ranks (fused-rank.ts). The fused score orders well but has no
 * scale of its own — a long turn scores high on any question — so the scale comes from the
 * calibrated curve: the best hit by the fused order gets the search's level, the best calibrated
 * relevance among its candidates (how well anything matched the query), and every other hit that
 * level less a share per fused point below the best:
 *
 *   relevance = level × exp(−(best fused − fused) / 22)
 *
 * So the hits are ordered by the relevance they show, a query that matches nothing well shows
 * nothing high, and the thresholds keep their meaning. 22 keeps the share of answering turns
 * at relevance 0.5 where the raw curve put it on LoCoMo dev conversations 1–3; how it was chosen
 * and what it does elsewhere: docs/decisions/fused-relevance.md.
 */

/** Fused points below the best hit at which relevance falls to 1/e of the search's level. */
export const FUSED_SPREAD = 22;

/** What a search the graph ranked measured once for all its hits. */
export interface FusedScale {
  /** The best fused score among the candidates. */
  best: number;
  /** The best calibrated relevance among the candidates (before the store's shift): what the best hit gets. */
  level: number;
}

/** A hit's fused score and its search's scale, as hits and receipts show them. */
export interface FusedSignal extends FusedScale {
  /** This hit's fused score. */
  score: number;
}

/** The scale of a search whose candidates have these fused scores and calibrated relevances. Pure. */
export function fusedScale(candidates: readonly { fused: number; relevance: number }[]): FusedScale {
  let best = -Infinity;
  let level = 0;
  for (const { fused, relevance } of candidates) {
    if (fused > best) best = fused;
    if (relevance > level) level = relevance;
  }
  return { best, level };
}

/**
 * The relevance of a fused score on its search's scale, before the store's shift and the
 * cooldown: the level for the best hit, less for each fused point below it; never below 0, and
 * while the level is above 0 two different fused scores never share a relevance. Pure.
 */
export function fusedRelevance(fused: number, scale: FusedScale): number {
  if (Number.isNaN(fused)) return 0;
  return scale.level * Math.exp(-Math.max(0, scale.best - fused) / FUSED_SPREAD);
}
