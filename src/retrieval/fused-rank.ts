/**
 * The order of a graph-aware search: one linear score over the signals hybrid search and the
 * graph stage already measured, instead of the hand-set sum of bonuses. The hits' relevance is
 * this score on a fixed calibrated curve (fused-relevance.ts), so the order and the numbers shown
 * agree and the seeds' thresholds keep their meaning. It applies when the query names an entity
 * the store knows and vectors are on (the weights were fitted with meaning in the mix); any other
 * search ranks as before.
 *
 * Besides the usual signals it reads three facts the fixed sum could not weigh: where the memory
 * stood in the full-text index's list, how long it is (a longer turn says more), and how well the
 * memories right beside it in its session matched (a question's answer is often the reply to, or
 * the lead-in of, the turn that matches it best; this looks at every candidate's neighbours, not
 * only the best two hits').
 *
 * Two more are read over the whole set of candidates and the memory's form rather than its match:
 * - how much of the memory asks rather than tells (text/question-share.ts): a remembered question
 *   shares the words of a later question about the same thing, but the answer is in the reply;
 * - its session's standing: how far the best match of its session (by the score of the signals
 *   above) falls below the best match of the search. Sessions are ranked, then turns: a turn of
 *   the session the question is about beats an equally good turn of a session that otherwise
 *   matched nothing. A memory in no session stands alone.
 *
 * The weights are a listwise logistic ranker (softmax over each question's candidates, small L2
 * penalty) fitted on conversations 1–3 of the LoCoMo development slice with the local model:
 * first the nine per-memory signals (of the feature sets and penalties tried, the one with the
 * best recall@10 there that left no question category more than a point lower), then — those
 * kept as they were — the question share and the session's standing. Checked on conversations
 * 4–5, which they never saw (`engram bench locomo`; see docs/benchmarks.md). They are constants,
 * the same for every store. Two paths came later and were weighed alone, the fitted weights kept:
 * the memory is of a day the question pins, and it names a place for a question about one.
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
  /** The question pins a day, and the memory occurred on it or names a date in it (graph-recall.ts). */
  onDay: boolean;
  /** A question about a place, and the memory, about an entity the query names, names a place. */
  placed: boolean;
  /** Turns between the memory and the nearest of the best two hits in its session (1 or 2), or null. */
  besideBest: number | null;
  /** 1-based place in the full-text index's list, or null. */
  lexicalRank: number | null;
  /** Characters of the memory's text. */
  length: number;
  /** The best raw hybrid score (graph amounts included) of a candidate right beside it in its session, or 0. */
  neighbourRaw: number;
  /** Share of the memory's sentences that ask a question, in [0, 1] (text/question-share.ts). */
  questionShare: number;
}

/** One candidate of a search as the fused order sees it. */
export interface FusionCandidate {
  features: FusionFeatures;
  /** Its session, or null when it belongs to none (it is then a session of its own). */
  session: string | null;
}

/** The fitted weights, one per feature. */
export const FUSION_WEIGHTS = {
  coverage: 1.54,
  /** Of the saturated BM25, `bm25 / (bm25 + 4)`. */
  bm25: 2.64,
  cosine: 8.48,
  about: 1.52,
  dated: 2.29,
  // Not fitted with the rest: each the smallest amount of the best summed recall@10 on REALTALK
  // chats 1–2 with LoCoMo 1–3 (docs/decisions/realtalk-misses.md#built).
  onDay: 4,
  placed: 4,
  besideBest: { 1: 0.85, 2: 0.8 },
  /** Of `1 / rank`. */
  lexicalRank: 1.43,
  /** Of `ln(characters) / 5`. */
  length: 6.66,
  neighbourRaw: 4.38,
  questionShare: -4.36,
  /** Of the best match of the memory's session less the best match of the search (0 or below). */
  sessionStanding: 0.51,
} as const;

/** BM25 at which its saturated value is one half (as in calibration.ts). */
const BM25_HALF = 4;

/** How well one candidate matched the query, by the nine per-memory signals. Pure. */
function matchScore(f: FusionFeatures): number {
  const w = FUSION_WEIGHTS;
  const bm25 = Math.max(0, f.bm25 ?? 0);
  let score =
    w.coverage * f.coverage +
    w.bm25 * (bm25 / (bm25 + BM25_HALF)) +
    w.cosine * Math.max(0, f.cosine) +
    (f.about ? w.about : 0) +
    (f.dated ? w.dated : 0) +
    (f.onDay ? w.onDay : 0) +
    (f.placed ? w.placed : 0) +
    w.length * (Math.log(Math.max(1, f.length)) / 5) +
    w.neighbourRaw * f.neighbourRaw;
  if (f.besideBest === 1 || f.besideBest === 2) score += w.besideBest[f.besideBest];
  if (f.lexicalRank !== null) score += w.lexicalRank / f.lexicalRank;
  return score;
}

/** The fused score of one candidate on its own (its session's standing aside): higher ranks first. Pure. */
export function fusedScore(f: FusionFeatures): number {
  return withForm(matchScore(f), f);
}

/** A candidate's match with its form weighed in: how much of it asks rather than tells. */
function withForm(match: number, f: FusionFeatures): number {
  return match + FUSION_WEIGHTS.questionShare * f.questionShare;
}

/**
 * The fused score of every candidate of one search, in the same order: its own score plus its
 * session's standing (how far the best match of its session falls below the best of all). The
 * best session's candidates lose nothing. Pure.
 */
export function fusedScores(candidates: readonly FusionCandidate[]): number[] {
  const matched = candidates.map((c) => matchScore(c.features));
  const best = matched.reduce((top, score) => Math.max(top, score), -Infinity);
  const sessionBest = new Map<string, number>();
  candidates.forEach((c, i) => {
    const score = matched[i] ?? 0;
    if (c.session !== null) sessionBest.set(c.session, Math.max(sessionBest.get(c.session) ?? score, score));
  });
  return candidates.map((c, i) => {
    const own = matched[i] ?? 0;
    const session = c.session === null ? own : (sessionBest.get(c.session) ?? own);
    return withForm(own, c.features) + FUSION_WEIGHTS.sessionStanding * (session - best);
  });
}
