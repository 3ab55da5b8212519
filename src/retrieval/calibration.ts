/**
 * Calibrated relevance: one number in [0, 1] that means the same thing for every query, so
 * the seeds' thresholds (0.6 for active recall, 0.5 for intrusive recall) behave as intended.
 *
 * The raw hybrid score is `lexicalWeight × coverage + (1 − lexicalWeight) × cosine`, where
 * coverage is the share of the query's content words found in the memory (and, for memories
 * indexed with context, half from the memory alone, half with its context). A monotone
 * piecewise-linear curve maps it to relevance. Its anchors come from the LoCoMo development
 * slice with the local model (999 questions, 2,760 turns; 3,000 random question–turn pairs
 * from different conversations as "unrelated"):
 *
 *   raw 0.29 = the 99th percentile of unrelated pairs          → relevance 0.5
 *   raw 0.395 = the 25th percentile of evidence turns          → relevance 0.6
 *   raw 0.70 = the 90th percentile of evidence turns           → relevance 0.9
 *
 * so about 90% of evidence clears 0.5 and 75% clears 0.6, while about 1% of unrelated pairs
 * clear 0.5 and 0.2% clear 0.6. `engram bench locomo` re-measures these shares.
 */

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
