/**
 * The ranking stage: drafts become hits. Each hit's relevance is the mode's (search-strategy.ts)
 * less the store's shift, times the cooldown; its score is relevance × the visible factors — the
 * one order every list shows (docs/search.md). Hits below `minRelevance` or scoring 0 are left out.
 */
import type { Draft } from './draft-candidates.js';
import type { SearchHit } from './search-hit.js';
import type { IndexRanks, SearchStrategy } from './search-strategy.js';
import { shiftRelevance } from './store-calibration.js';

/** What ranking reads besides the drafts. */
export interface RankRequest {
  strategy: SearchStrategy;
  /** What the store's calibration takes off this search's relevance (store-calibration.ts). */
  storeShift: number;
  ranks: IndexRanks;
  minRelevance: number;
  limit: number;
}

/** Up to `limit` hits, best first; ties by memory id. */
export function rankHits(drafts: readonly Draft[], request: RankRequest): SearchHit[] {
  const { strategy, storeShift, ranks } = request;
  const hits = drafts.map((d): SearchHit => {
    const raw = strategy.shownRaw(d);
    const { cooldown, recency, scope, exact } = d.factors;
    const relevance = shiftRelevance(strategy.relevance(d, raw, ranks), storeShift) * cooldown;
    return {
      memory: d.memory,
      score: relevance * recency * scope * exact,
      relevance,
      raw,
      storeShift,
      signals: d.signals,
      factors: d.factors,
      via: d.graph?.via ?? null,
    };
  });
  return hits
    .filter((hit) => hit.relevance >= request.minRelevance && hit.score > 0)
    .sort((a, b) => b.score - a.score || a.memory.id.localeCompare(b.memory.id))
    .slice(0, request.limit);
}
