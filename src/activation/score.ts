/**
 * Seed 002's in-tier score for one candidate:
 * `relevance × cooldown × scope × recency × importance × novelty × repeat × exact`,
 * every factor kept for the receipt. Cooldown (seed 001) also lowers the relevance that the
 * threshold is checked against; the repeat penalty only ranks, it never removes.
 */
import type { Memory } from '../model/memory.js';
import type { ScoreFactorsReceipt } from '../model/receipt.js';
import type { SearchHit } from '../retrieval/hybrid-search.js';
import { cooldownDecay, type CooldownSettings, secondsSince } from './cooldown.js';
import { IMPORTANCE_PRIOR, noveltyFactor } from './priors.js';

export interface ScoreContext {
  now: Date;
  /** Null when the cooldown does not apply to this recall path. */
  cooldown: CooldownSettings | null;
  /** Memories injected into this session within the repeat window. */
  recentlyInjected: ReadonlySet<string>;
  repeatPenalty: number;
  /** The query's distinct content words; a strong lexical hit holds all of three or more. */
  queryWordCount: number;
}

/** Why a repeated memory keeps its full score (seed 002's exemptions), or null. */
export type RepeatExemption = 'hard_rule' | 'pinned' | 'exact_hit' | null;

/** A scored candidate. */
export interface ScoredCandidate {
  memory: Memory;
  factors: ScoreFactorsReceipt;
  /** Injected within the repeat window. */
  repeated: boolean;
  repeatExemption: RepeatExemption;
  /** The score without the repeat penalty: what it would have ranked with. */
  unpenalizedScore: number;
  /** How the knowledge graph reached the memory, from the search hit; null when it did not. */
  via: string | null;
}

export function scoreCandidate(hit: SearchHit, context: ScoreContext): ScoredCandidate {
  const { memory } = hit;
  const cooldown = context.cooldown ? cooldownDecay(context.cooldown, secondsSince(memory.lastRetrievedAt, context.now)) : 1;
  const effectiveRelevance = hit.relevance * cooldown;
  const repeated = context.recentlyInjected.has(memory.id);
  const repeatExemption = repeated ? exemptionOf(hit, context.queryWordCount) : null;
  const repeat = repeated && repeatExemption === null ? context.repeatPenalty : 1;
  const importance = IMPORTANCE_PRIOR[memory.tier];
  const novelty = noveltyFactor(memory.retrievalCount);
  const { scope, recency, exact } = hit.factors;
  const unpenalizedScore = effectiveRelevance * scope * recency * importance * novelty * exact;
  return {
    memory,
    repeated,
    repeatExemption,
    unpenalizedScore,
    via: hit.via,
    factors: {
      raw: hit.raw,
      ...(hit.signals.fused === null ? {} : { fused: hit.signals.fused }),
      storeShift: hit.storeShift,
      relevance: hit.relevance,
      cooldown,
      effectiveRelevance,
      scope,
      recency,
      importance,
      novelty,
      repeat,
      exact,
      score: unpenalizedScore * repeat,
    },
  };
}

/**
 * Seed 002: a repeated memory is not penalised when it is a hard rule, pinned, or an exact /
 * very strong lexical hit for this turn — the query's phrase, or every one of its three or more
 * content words.
 */
function exemptionOf(hit: SearchHit, queryWordCount: number): RepeatExemption {
  if (hit.memory.hardRule) return 'hard_rule';
  if (hit.memory.pinned) return 'pinned';
  if (hit.factors.exact > 1) return 'exact_hit';
  if (queryWordCount >= 3 && hit.signals.coverage >= 1) return 'exact_hit';
  return null;
}
