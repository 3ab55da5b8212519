/**
 * The activation receipt (seed 002): every decision about which memories enter a turn, with
 * every factor of every score, so an operator can tell from the receipt alone why a memory was
 * or was not injected. Plain data, stored as JSON.
 */
import type { Kind, Tier } from './memory.js';

/** Which recall made the decision: before a user message, on a reflection nudge, or a tool search. */
export const RECALL_PATHS = ['active', 'intrusive', 'explicit'] as const;
export type RecallPath = (typeof RECALL_PATHS)[number];

/** Seed 002's selection policies; `tier_first_v1` is the one-line rollback. */
export const SELECTION_MODES = ['tier_quota_v1', 'tier_first_v1'] as const;
export type SelectionMode = (typeof SELECTION_MODES)[number];

/** Where an injected memory sits: the working-set slot, the pinned lane (hard rules without a working set), or the hot lane. */
export type Lane = 'working_set' | 'pinned' | 'hot';

/**
 * What happened to a candidate. Chosen: `pinned` (working set or hard rule), `quota` (within its
 * tier's quota), `spill` (unused budget). Left out: the rest.
 */
export const OUTCOMES = [
  'pinned',
  'quota',
  'spill',
  'suppressed_by_repeat',
  'cooled_down',
  'backbone_duplicate',
  'near_duplicate',
  'below_threshold',
  'budget_full',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Every factor of a hot-lane score (seed 002): `score` is their product. */
export interface ScoreFactorsReceipt {
  /**
   * The hybrid score before calibration, the graph's part included: what the calibration curve
   * turned into `relevance`, so a memory that cleared or missed the threshold can be traced to
   * its signals. Absent from receipts written before it was recorded.
   */
  raw?: number;
  /**
   * When the search ranked by the fused order (the query named an entity the store knows): this
   * memory's fused score, the best of the search and the search's level; relevance is then
   * `lift(level) × exp(−(best − score) / 22)` with the store's shift (the level lifted toward 1
   * above 0.6, fused-relevance.ts; receipts written before the lift used the level itself),
   * instead of the curve's value of `raw`. Absent otherwise and from receipts written before
   * relevance followed the fused order.
   */
  fused?: { score: number; best: number; level: number };
  /**
   * The store's own calibration for this query (0 on a young store): relevance is the curve's
   * value × `0.6 / (0.6 + storeShift)`, so a relevance of 0.6 loses exactly this much. Receipts
   * written before that took it off instead (`calibrate(raw) − storeShift`). Absent from older receipts.
   */
  storeShift?: number;
  /** Relevance from hybrid search: the calibrated curve's value of `fused` when present, else of `raw`, with the store's shift. */
  relevance: number;
  /** Seed 001's cooldown decay on time since the last retrieval (1 = none). */
  cooldown: number;
  /** relevance × cooldown: what the threshold is checked against. */
  effectiveRelevance: number;
  scope: number;
  recency: number;
  /** The tier as a prior: must 1, nice 0.9, unknown 0.8. */
  importance: number;
  /** Favours memories that have not been retrieved many times. */
  novelty: number;
  /** `repeat_penalty` when injected within the repeat window, else 1. */
  repeat: number;
  exact: number;
  score: number;
}

/** One memory in a receipt. */
export interface ReceiptEntry {
  id: string;
  kind: Kind;
  tier: Tier;
  outcome: Outcome;
  lane: Lane | null;
  /** The start of the memory's text. */
  preview: string;
  /** Null for working-set items, which are pinned without a score. */
  factors: ScoreFactorsReceipt | null;
  /** The MMR adjustment when chosen: how much similarity to earlier picks cost it. */
  diversityPenalty: number;
  /** How the knowledge graph reached the memory ("Caroline → support group"); null when it did not. */
  via: string | null;
}

/** Seed 002's quota summary. */
export interface QuotaSummary {
  mustMax: number;
  niceMin: number;
  unknownMax: number;
  /** Unknown-tier memories taken through the wildcard. */
  wildcardUsed: number;
  selected: Record<Tier, number>;
  /** Slots filled from the best remaining candidates after the quotas. */
  spilled: number;
}

/** One activation decision. */
export interface Receipt {
  id: string;
  tenant: string;
  sessionId: string | null;
  turn: number;
  path: RecallPath;
  createdAt: string;
  /** The start of the query the decision was made for. */
  query: string;
  /** `top_k` is plain best-first selection: intrusive recall and the benchmark baseline. */
  selectionMode: SelectionMode | 'top_k';
  budget: { maxItems: number; hotLane: number; threshold: number };
  quota: QuotaSummary;
  workingSet: { enabled: boolean; memoryId: string | null; itemIds: string[] };
  /** Injected, in order. */
  chosen: ReceiptEntry[];
  /** The best candidates left out, with the reason. */
  leftOut: ReceiptEntry[];
  suppressedByRepeat: string[];
  pinnedByWorkingSet: string[];
  excludedAsBackboneDuplicate: string[];
  cooledDown: string[];
  nearDuplicates: string[];
  belowThreshold: number;
  candidates: number;
  whySummary: string;
  whyTheseIds: Record<string, string>;
  /**
   * Milliseconds: embedding the query, drawing the candidates, and the whole decision from the
   * embedding's start. What needs no vector is read while the model embeds, so the first two
   * overlap; `total − embed` is what the decision added to the embedding's time.
   */
  latencyMs: { embed: number; search: number; total: number };
}
