/**
 * How alike two task goals are, for solution recall (seed 004), in one of three ways: `keyword`
 * (the seed's v1, shared words ÷ the larger word set), `semantic` (the seed's v2, the goals'
 * cosine mapped onto the same 0–1 scale through SEMANTIC_CURVE) and `hybrid` (stemmed keyword
 * overlap plus the semantic similarity, capped at 1). Pure: the cosine is measured elsewhere (by
 * the engine's search) and handed in. Why: docs/decisions/solution-similarity.md
 */
import type { SolutionSimilarity } from '../model/choices.js';
import { keywordOverlap, keywordSet } from '../retrieval/keyword-overlap.js';
import { stem } from '../text/stem.js';

export { SOLUTION_SIMILARITIES, type SolutionSimilarity } from '../model/choices.js';

/**
 * (cosine, similarity) anchors of the semantic scale, increasing in both: the unrelated goal
 * pairs' median → 0 and 90th percentile → 0.3, the default threshold, measured with the default
 * local model on bench/data/solution-pairs.json. Why: docs/decisions/solution-similarity.md
 */
export const SEMANTIC_CURVE: readonly (readonly [number, number])[] = [
  [0, 0],
  [0.42, 0],
  [0.55, 0.3],
  [0.8, 0.8],
  [1, 1],
];

/** What was measured between a new goal and a stored one. */
export interface GoalSignals {
  /** Seed 004's keyword overlap of the goals' words. */
  keyword: number;
  /** Keyword overlap of the goals' word stems ("parsing" meets "parse"). */
  stemmed: number;
  /** Cosine similarity mapped through SEMANTIC_CURVE; null when there are no vectors. */
  semantic: number | null;
}

/** The word sets of a goal, split once and compared with many others. */
export interface GoalWords {
  words: ReadonlySet<string>;
  stems: ReadonlySet<string>;
}

/** Splits a goal into its seed-004 words and their stems. */
export function goalWords(goal: string): GoalWords {
  const words = keywordSet(goal);
  return { words, stems: new Set([...words].map(stem)) };
}

/** The signals between two goals, given the cosine of their embeddings (null without vectors). */
export function goalSignals(a: GoalWords, b: GoalWords, cosine: number | null): GoalSignals {
  return {
    keyword: keywordOverlap(a.words, b.words),
    stemmed: keywordOverlap(a.stems, b.stems),
    semantic: cosine === null ? null : semanticSimilarity(cosine),
  };
}

/** The similarity of two goals in [0, 1] by `method`; semantic counts as 0 without vectors. */
export function goalSimilarity(signals: GoalSignals, method: SolutionSimilarity): number {
  switch (method) {
    case 'keyword':
      return signals.keyword;
    case 'semantic':
      return signals.semantic ?? 0;
    case 'hybrid':
      return Math.min(1, signals.stemmed + (signals.semantic ?? 0));
  }
}

/** A cosine similarity on the semantic scale (piecewise linear through SEMANTIC_CURVE). */
export function semanticSimilarity(cosine: number): number {
  const x = Math.min(1, Math.max(0, cosine));
  for (let i = 1; i < SEMANTIC_CURVE.length; i++) {
    const [x1, y1] = SEMANTIC_CURVE[i] as readonly [number, number];
    if (x <= x1) {
      const [x0, y0] = SEMANTIC_CURVE[i - 1] as readonly [number, number];
      return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
    }
  }
  return 1;
}
