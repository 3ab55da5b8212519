import { describe, expect, it } from 'vitest';

import type { Tier } from '../model/memory.js';
import type { Similarity } from '../retrieval/similarity.js';
import { type Selectable, selectCandidates, type SelectionPolicy } from './select.js';

const QUOTAS = { mustMax: 2, niceMin: 2, unknownMax: 1 };
const unrelated: Similarity = () => 0;

function candidates(spec: string): Selectable[] {
  // "must:0.9 must:0.8 nice:0.5" → ids m1, m2, n1 …, in the order given
  const counters: Record<Tier, number> = { must: 0, nice: 0, unknown: 0 };
  return spec.split(' ').map((part) => {
    const [tier, score] = part.split(':') as [Tier, string];
    counters[tier] += 1;
    return { id: `${tier[0]}${counters[tier]}`, tier, score: Number(score) };
  });
}

function select(policy: SelectionPolicy, spec: string, budget = 5, similarity = unrelated) {
  return selectCandidates({
    policy,
    candidates: candidates(spec),
    budget,
    quotas: QUOTAS,
    lambda: 0.7,
    similarity,
    nearDuplicate: 0.9,
  });
}

describe('tier_quota_v1', () => {
  it('caps must, keeps a floor for nice and a wildcard for unknown', () => {
    const selection = select('tier_quota_v1', 'must:0.99 must:0.98 must:0.97 must:0.96 nice:0.62 nice:0.61 unknown:0.6');

    expect(selection.picks.map((p) => p.id)).toEqual(['n1', 'n2', 'm1', 'm2', 'u1']);
    expect(selection.quota).toEqual({ wildcardUsed: 1, selected: { must: 2, nice: 2, unknown: 1 }, spilled: 0 });
  });

  it('spills unused budget to the best remaining candidates, must included', () => {
    const selection = select('tier_quota_v1', 'must:0.99 must:0.98 must:0.97 nice:0.7');

    expect(selection.picks).toEqual([
      { id: 'n1', reason: 'quota', diversityPenalty: 0 },
      { id: 'm1', reason: 'quota', diversityPenalty: 0 },
      { id: 'm2', reason: 'quota', diversityPenalty: 0 },
      { id: 'm3', reason: 'spill', diversityPenalty: 0 },
    ]);
    expect(selection.quota.spilled).toBe(1);
  });

  it('fills the whole budget with must when nothing else is relevant', () => {
    const selection = select('tier_quota_v1', 'must:0.9 must:0.8 must:0.7 must:0.6 must:0.5 must:0.4');
    expect(selection.picks.map((p) => `${p.id}:${p.reason}`)).toEqual([
      'm1:quota',
      'm2:quota',
      'm3:spill',
      'm4:spill',
      'm5:spill',
    ]);
  });

  it('never exceeds the budget', () => {
    expect(select('tier_quota_v1', 'nice:0.9 nice:0.8 nice:0.7', 2).picks.map((p) => p.id)).toEqual(['n1', 'n2']);
    expect(select('tier_quota_v1', 'must:0.9', 0).picks).toEqual([]);
  });
});

describe('tier_first_v1', () => {
  it('lets must fill the budget before any nice memory', () => {
    const selection = select('tier_first_v1', 'must:0.7 must:0.69 must:0.68 must:0.67 must:0.66 nice:0.99');
    expect(selection.picks.map((p) => p.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('consults nice, then unknown, only when must runs short', () => {
    const selection = select('tier_first_v1', 'must:0.7 unknown:0.99 nice:0.8');
    expect(selection.picks.map((p) => `${p.id}:${p.reason}`)).toEqual(['m1:quota', 'n1:spill', 'u1:spill']);
  });
});

describe('top_k', () => {
  it('takes the best candidates whatever their tier', () => {
    expect(select('top_k', 'must:0.5 nice:0.9 unknown:0.7 must:0.8', 3).picks.map((p) => p.id)).toEqual(['n1', 'm2', 'u1']);
  });
});

describe('diversity (MMR)', () => {
  it('leaves out a near-duplicate of an earlier pick', () => {
    const twins = (a: string, b: string) => ([a, b].sort().join() === 'm1,m2' ? 0.95 : 0);
    const selection = select('top_k', 'must:0.9 must:0.89 must:0.5', 3, twins);

    expect(selection.picks.map((p) => p.id)).toEqual(['m1', 'm3']);
    expect(selection.nearDuplicates).toEqual(['m2']);
  });

  it('prefers a different memory over a similar, slightly better one', () => {
    const similar = (a: string, b: string) => ([a, b].sort().join() === 'm1,m2' ? 0.8 : 0);
    const selection = select('top_k', 'must:0.9 must:0.85 must:0.8', 2, similar);

    // m2: 0.7 × 0.85 − 0.3 × 0.8 = 0.355 < m3: 0.7 × 0.8 = 0.56
    expect(selection.picks.map((p) => p.id)).toEqual(['m1', 'm3']);
  });

  it('reports the diversity penalty of a pick that resembles an earlier one', () => {
    const similar = (a: string, b: string) => ([a, b].sort().join() === 'm1,m2' ? 0.5 : 0);
    const selection = select('top_k', 'must:0.9 must:0.85', 2, similar);
    expect(selection.picks[1]?.diversityPenalty).toBeCloseTo(0.15, 12);
  });
});
