/**
 * Relevance in a search the graph ranks (fused-rank.ts): the fused score put on the calibrated
 * scale by one fixed, increasing curve, so the hits are ordered by the relevance they show and
 * the thresholds read the order the search believes in. The curve was fitted once by quantile
 * matching: on LoCoMo dev conversations 1–3, the turns that answer a question sit at the same
 * quantiles of relevance as the raw curve put them (calibration.ts). Why a fixed curve and not a
 * per-search one, and how it was measured: docs/decisions/fused-relevance.md.
 */

/** (fused score, relevance) anchors, increasing in both: the 5th … 95th percentiles of answering turns. */
export const FUSED_RELEVANCE_CURVE: readonly (readonly [number, number])[] = [
  [9.74, 0.546],
  [10.88, 0.597],
  [14.79, 0.713],
  [17.59, 0.816],
  [19.75, 0.901],
  [21.15, 0.926],
  [22.01, 0.94],
];

/**
 * The relevance of a fused score, before the store's shift and the cooldown: the curve between
 * its anchors, and beyond them tails that keep its slope at the ends and never reach 0 or 1, so
 * two different fused scores never share a relevance. Pure.
 */
export function fusedRelevance(fused: number): number {
  if (Number.isNaN(fused)) return 0;
  const curve = FUSED_RELEVANCE_CURVE;
  const [f0, r0] = curve[0] as readonly [number, number];
  const [f1, r1] = curve[1] as readonly [number, number];
  if (fused <= f0) return r0 * Math.exp(((r1 - r0) / (f1 - f0) / r0) * (fused - f0));
  for (let i = 1; i < curve.length; i++) {
    const [x1, y1] = curve[i] as readonly [number, number];
    if (fused <= x1) {
      const [x0, y0] = curve[i - 1] as readonly [number, number];
      return y0 + ((y1 - y0) * (fused - x0)) / (x1 - x0);
    }
  }
  const [fm, rm] = curve[curve.length - 2] as readonly [number, number];
  const [fn, rn] = curve[curve.length - 1] as readonly [number, number];
  return 1 - (1 - rn) * Math.exp(-((rn - rm) / (fn - fm) / (1 - rn)) * (fused - fn));
}
