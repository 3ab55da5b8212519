/**
 * Relevance in a search the graph ranks (fused-rank.ts). The fused score orders well but has no
 * scale of its own — a long turn scores high on any question — so the scale comes from the
 * calibrated curve: the best hit by the fused order gets the search's level, the best calibrated
 * relevance among its candidates (how well anything matched the query) lifted toward 1 above
 * active recall's 0.6, and every other hit that much less a share per fused point below the best:
 *
 *   relevance   = lift(level) × exp(−(best fused − fused) / 22)
 *   lift(level) = level                                at or below 0.6
 *               = 1 − 0.4 × ((1 − level) / 0.4) ^ 2.1    above
 *
 * So the hits are ordered by the relevance they show, a query that matches nothing well shows
 * nothing high, and the thresholds keep their meaning. The lift is one factor per search, so it
 * never reorders hits; it lets a search that matched well keep more of its hits above 0.6. How 22
 * and 2.1 were chosen, and what they do on every slice: docs/decisions/fused-relevance.md.
 */

/**
 * Fused points below the best hit at which relevance falls to 1/e of the search's lifted level:
 * the value that kept answering turns at 0.5 where the raw curve put them on LoCoMo 1–3.
 */
export const FUSED_SPREAD = 22;

/**
 * The lift's power: above LIFT_FROM, a level's distance from 1 is taken to this power (on the
 * span from LIFT_FROM to 1), so 0.7 shows 0.78, 0.8 shows 0.91, 0.9 shows 0.98. The smallest
 * power (in steps of 0.1) at which 66% of the answering turns of REALTALK chats 1–2 reach 0.6.
 */
export const LEVEL_LIFT = 2.1;

/**
 * Where the lift starts: active recall's default threshold (not tuned). It is part of the
 * calibration, not read from the configuration: a store whose threshold is set elsewhere sees
 * the same relevances, so a threshold of 0.7 means what 0.7 means on every store.
 */
export const LIFT_FROM = 0.6;

/** What a search the graph ranked measured once for all its hits. */
export interface FusedScale {
  /** The best fused score among the candidates. */
  best: number;
  /** The best calibrated relevance among the candidates (before the lift and the store's shift). */
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
 * What the best hit of a search at `level` shows: the level itself at or below LIFT_FROM, above
 * it nearer 1 — never lower, never above 1, and two different levels never show the same. Pure.
 */
export function liftedLevel(level: number): number {
  if (!(level > LIFT_FROM)) return level;
  const span = 1 - LIFT_FROM;
  return 1 - span * ((1 - Math.min(1, level)) / span) ** LEVEL_LIFT;
}

/**
 * The relevance of a fused score on its search's scale, before the store's shift and the
 * cooldown: the lifted level for the best hit, less for each fused point below it; never below 0,
 * and while the level is above 0 two different fused scores never share a relevance. Pure.
 */
export function fusedRelevance(fused: number, scale: FusedScale): number {
  if (Number.isNaN(fused)) return 0;
  return liftedLevel(scale.level) * Math.exp(-Math.max(0, scale.best - fused) / FUSED_SPREAD);
}
