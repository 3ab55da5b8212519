/**
 * Filling the hot lane (seed 002). `tier_quota_v1`: nice_to_have gets a floor when relevant
 * nice memories exist, must_remember a cap, unknown a wildcard, and unused budget spills to
 * the best remaining candidates across tiers. `tier_first_v1`: must fills the budget first,
 * nice only when must runs short, then unknown (the old behaviour, kept as the rollback).
 * `top_k`: the best candidates whatever their tier (the baseline, and intrusive recall).
 * Each pick is greedy MMR: score traded against similarity to what was already picked, and a
 * near-duplicate of an earlier pick is left out.
 */
import type { Tier } from '../model/memory.js';
import type { QuotaSummary, SelectionMode } from '../model/receipt.js';
import type { Similarity } from '../retrieval/similarity.js';

/** The selection policies: seed 002's two plus plain top-k. */
export type SelectionPolicy = SelectionMode | 'top_k';

/** Seed 002's quotas. */
export interface Quotas {
  mustMax: number;
  niceMin: number;
  unknownMax: number;
}

/** What selection needs of a candidate. */
export interface Selectable {
  id: string;
  tier: Tier;
  score: number;
}

export interface SelectionRequest {
  policy: SelectionPolicy;
  /** Candidates that cleared the threshold and are not backbone duplicates. */
  candidates: readonly Selectable[];
  budget: number;
  quotas: Quotas;
  /** MMR: 1 ranks by score alone, lower values favour diversity. */
  lambda: number;
  similarity: Similarity;
  /** Similarity at or above which a candidate duplicates an earlier pick. */
  nearDuplicate: number;
}

/** Why a chosen memory got in: within its tier's quota, or through spilled-over budget. */
export type PickReason = 'quota' | 'spill';

export interface Pick {
  id: string;
  reason: PickReason;
  /** How much MMR took off for similarity to earlier picks. */
  diversityPenalty: number;
}

export interface Selection {
  /** In the order picked. */
  picks: Pick[];
  nearDuplicates: string[];
  quota: Omit<QuotaSummary, 'mustMax' | 'niceMin' | 'unknownMax'>;
}

interface Phase {
  tier: Tier | null;
  /** Picks of `tier` allowed in total, counting earlier phases. */
  upTo: number;
  reason: PickReason;
  wildcard?: boolean;
}

function phasesOf(policy: SelectionPolicy, quotas: Quotas): Phase[] {
  switch (policy) {
    case 'tier_quota_v1':
      return [
        // seed 002: niceMin is a floor when relevant candidates exist
        { tier: 'nice', upTo: quotas.niceMin, reason: 'quota' },
        // seed 002: mustMax is a cap, not a target
        { tier: 'must', upTo: quotas.mustMax, reason: 'quota' },
        { tier: 'unknown', upTo: quotas.unknownMax, reason: 'quota', wildcard: true },
        // seed 002: unused budget spills to the best remaining candidates across tiers
        { tier: null, upTo: Infinity, reason: 'spill' },
      ];
    case 'tier_first_v1':
      return [
        { tier: 'must', upTo: Infinity, reason: 'quota' },
        { tier: 'nice', upTo: Infinity, reason: 'spill' },
        { tier: 'unknown', upTo: Infinity, reason: 'spill' },
      ];
    case 'top_k':
      return [{ tier: null, upTo: Infinity, reason: 'quota' }];
  }
}

/** Picks up to `budget` candidates by the policy's phases, each pick by MMR. */
export function selectCandidates(request: SelectionRequest): Selection {
  const { budget, lambda, similarity, nearDuplicate } = request;
  const remaining = new Map(request.candidates.map((candidate) => [candidate.id, candidate]));
  const picks: Pick[] = [];
  const nearDuplicates: string[] = [];
  const selected: Record<Tier, number> = { must: 0, nice: 0, unknown: 0 };
  let wildcardUsed = 0;
  let spilled = 0;

  for (const phase of phasesOf(request.policy, request.quotas)) {
    for (;;) {
      if (picks.length >= budget) break;
      if (phase.tier !== null && selected[phase.tier] >= phase.upTo) break;
      let best: { candidate: Selectable; mmr: number; penalty: number } | null = null;
      for (const candidate of remaining.values()) {
        if (phase.tier !== null && candidate.tier !== phase.tier) continue;
        const closest = picks.reduce((max, pick) => Math.max(max, similarity(candidate.id, pick.id)), 0);
        if (closest >= nearDuplicate) {
          remaining.delete(candidate.id);
          nearDuplicates.push(candidate.id);
          continue;
        }
        const penalty = (1 - lambda) * closest;
        const mmr = lambda * candidate.score - penalty;
        if (best === null || mmr > best.mmr || (mmr === best.mmr && candidate.id < best.candidate.id)) {
          best = { candidate, mmr, penalty };
        }
      }
      if (best === null) break;
      remaining.delete(best.candidate.id);
      picks.push({ id: best.candidate.id, reason: phase.reason, diversityPenalty: best.penalty });
      selected[best.candidate.tier] += 1;
      if (phase.wildcard) wildcardUsed += 1;
      if (phase.reason === 'spill') spilled += 1;
    }
  }
  return { picks, nearDuplicates, quota: { wildcardUsed, selected, spilled } };
}
