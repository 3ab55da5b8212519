/**
 * Retrieval-quality metrics for the dataset benchmarks: recall, hit and nDCG at a cut-off k
 * over a ranked list of ids, and averaging per-question scores overall and per group.
 */
import { quantile } from './stats.js';

/** Share of the `relevant` ids found in the first `k` of `ranked` (0 when nothing is relevant). */
export function recallAtK(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  if (relevant.size === 0) return 0;
  return countFound(ranked, relevant, k) / relevant.size;
}

/** 1 when any relevant id is in the first `k` of `ranked`, else 0 (LongMemEval's recall_any). */
export function hitAtK(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  return countFound(ranked, relevant, k) > 0 ? 1 : 0;
}

/** 1 when every relevant id is in the first `k` of `ranked`, else 0 (LongMemEval's recall_all). */
export function allAtK(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  return relevant.size > 0 && countFound(ranked, relevant, k) === relevant.size ? 1 : 0;
}

/**
 * Binary-relevance nDCG at `k`: DCG = Σ rel_i / log2(i + 1) over ranks i = 1..k, divided by the
 * DCG of the ideal ranking (all relevant ids first). A repeated id gains only once. 0 when
 * nothing is relevant.
 */
export function ndcgAtK(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  const ideal = discountedGain(Math.min(k, relevant.size));
  if (ideal === 0) return 0;
  const seen = new Set<string>();
  let gain = 0;
  ranked.slice(0, k).forEach((id, index) => {
    if (relevant.has(id) && !seen.has(id)) gain += 1 / Math.log2(index + 2);
    seen.add(id);
  });
  return gain / ideal;
}

/** The items in order of first appearance, without repeats. */
export function distinct<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}

/** Per-question scores averaged overall and per group, with the number of questions in each. */
export interface AveragedScores {
  overall: Record<string, number>;
  byGroup: Record<string, Record<string, number>>;
  counts: { overall: number; byGroup: Record<string, number> };
}

/** Averages each metric over all `rows` and over the rows of each group. */
export function averageScores(rows: readonly { group: string; scores: Readonly<Record<string, number>> }[]): AveragedScores {
  const groups = new Map<string, Readonly<Record<string, number>>[]>();
  for (const row of rows) groups.set(row.group, [...(groups.get(row.group) ?? []), row.scores]);
  const byGroup: Record<string, Record<string, number>> = {};
  const counts: Record<string, number> = {};
  for (const [group, scores] of groups) {
    byGroup[group] = averageEach(scores);
    counts[group] = scores.length;
  }
  return { overall: averageEach(rows.map((row) => row.scores)), byGroup, counts: { overall: rows.length, byGroup: counts } };
}

function averageEach(scores: readonly Readonly<Record<string, number>>[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const score of scores) {
    for (const [name, value] of Object.entries(score)) sums[name] = (sums[name] ?? 0) + value;
  }
  return Object.fromEntries(Object.entries(sums).map(([name, sum]) => [name, sum / scores.length]));
}

function countFound(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  return distinct(ranked.slice(0, k)).filter((id) => relevant.has(id)).length;
}

/** DCG of `n` relevant items at the top of a ranking. */
function discountedGain(n: number): number {
  let gain = 0;
  for (let index = 0; index < n; index += 1) gain += 1 / Math.log2(index + 2);
  return gain;
}

/** Per method: its scores averaged overall and per group, and its search latency. */
export function summarizeMethods<M extends string>(
  methods: readonly M[],
  rows: Record<M, readonly { group: string; scores: Readonly<Record<string, number>> }[]>,
  latencies: Record<M, readonly number[]>,
): Record<M, { overall: Record<string, number>; byGroup: Record<string, Record<string, number>>; latencyMs: LatencySummary }> {
  const out = {} as Record<
    M,
    { overall: Record<string, number>; byGroup: Record<string, Record<string, number>>; latencyMs: LatencySummary }
  >;
  for (const method of methods) {
    const averaged = averageScores(rows[method]);
    out[method] = { overall: averaged.overall, byGroup: averaged.byGroup, latencyMs: summarizeLatency(latencies[method]) };
  }
  return out;
}

export interface LatencySummary {
  mean: number;
  p50: number;
  p95: number;
}

function summarizeLatency(ms: readonly number[]): LatencySummary {
  return {
    mean: ms.reduce((total, value) => total + value, 0) / Math.max(1, ms.length),
    p50: quantile(ms, 0.5),
    p95: quantile(ms, 0.95),
  };
}
