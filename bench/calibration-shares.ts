/**
 * The calibration check both retrieval benchmarks report: of evidence pairs (a question and a
 * turn that answers it) and of unrelated pairs (a question and a turn of another conversation
 * or haystack), the shares whose relevance clears the seeds' thresholds — intrusive recall's 0.5
 * and active recall's 0.6. Relevance thresholds mean something only if unrelated pairs rarely
 * clear them and evidence usually does.
 */

/** The thresholds whose behaviour calibration is judged by. */
export const THRESHOLDS = [0.5, 0.6] as const;

/** How many pairs of one sort were seen, and how many cleared each threshold. */
export interface PairCounts {
  pairs: number;
  above: Record<string, number>;
}

export interface CalibrationCounts {
  evidence: PairCounts;
  unrelated: PairCounts;
}

/** The counts as reported: pairs, and the share at or above each threshold (">=0.5"). */
export interface CalibrationShares {
  evidence: { pairs: number; share: Record<string, number> };
  unrelated: { pairs: number; share: Record<string, number> };
}

export function emptyCalibration(): CalibrationCounts {
  const zero = () => Object.fromEntries(THRESHOLDS.map((t) => [String(t), 0]));
  return { evidence: { pairs: 0, above: zero() }, unrelated: { pairs: 0, above: zero() } };
}

/** Counts one pair with this relevance (a turn that was no candidate at all counts as 0). */
export function countPair(counts: PairCounts, relevance: number): void {
  counts.pairs++;
  for (const threshold of THRESHOLDS) if (relevance >= threshold) counts.above[String(threshold)]! += 1;
}

/**
 * Counts every turn of an index of `turns` against an unrelated question, given the relevance of
 * those the search returned: the rest were no candidate, so below every threshold.
 */
export function countUnrelated(counts: PairCounts, relevances: Iterable<number>, turns: number): void {
  let returned = 0;
  for (const relevance of relevances) {
    countPair(counts, relevance);
    returned++;
  }
  counts.pairs += turns - returned;
}

export function calibrationShares(counts: CalibrationCounts): CalibrationShares {
  const share = (pair: PairCounts) =>
    Object.fromEntries(THRESHOLDS.map((t) => [`>=${t}`, (pair.above[String(t)] ?? 0) / Math.max(1, pair.pairs)]));
  return {
    evidence: { pairs: counts.evidence.pairs, share: share(counts.evidence) },
    unrelated: { pairs: counts.unrelated.pairs, share: share(counts.unrelated) },
  };
}

/** "97.4% >=0.5, 87.9% >=0.6 (1,234 pairs)". */
export function formatShares(counts: { pairs: number; share: Record<string, number> }): string {
  const parts = Object.entries(counts.share).map(([name, value]) => `${(value * 100).toFixed(1)}% ${name}`);
  return `${parts.join(', ')} (${counts.pairs} pairs)`;
}
