import { describe, expect, it } from 'vitest';

import { makeMemory } from '../../test/fixtures/memory.js';
import type { Memory } from '../model/memory.js';
import type { SearchHit } from '../retrieval/hybrid-search.js';
import { scoreCandidate, type ScoreContext } from './score.js';

const NOW = new Date('2026-01-31T12:00:00Z');

function hit(
  memory: Partial<Memory>,
  fields: { relevance?: number; exact?: number; coverage?: number; scope?: number; recency?: number } = {},
): SearchHit {
  return {
    memory: makeMemory({ id: 'm', ...memory }),
    score: 0,
    relevance: fields.relevance ?? 0.8,
    raw: 0.5,
    storeShift: 0,
    signals: { bm25: null, coverage: fields.coverage ?? 0.5, cosine: null, keyword: 0, graph: null, fused: null },
    factors: { scope: fields.scope ?? 1, recency: fields.recency ?? 1, exact: fields.exact ?? 1, cooldown: 1 },
    via: null,
  };
}

describe('the receipt factors of a candidate', () => {
  it('carry the raw score the relevance was calibrated from', () => {
    const scored = scoreCandidate({ ...hit({ tier: 'must' }, { relevance: 0.62 }), raw: 0.41 }, context());
    expect(scored.factors).toMatchObject({ raw: 0.41, relevance: 0.62 });
  });
});

function context(fields: Partial<ScoreContext> = {}): ScoreContext {
  return { now: NOW, cooldown: null, recentlyInjected: new Set(), repeatPenalty: 0.35, queryWordCount: 2, ...fields };
}

describe('scoreCandidate (seed 002: relevance × cooldown × scope × recency × importance × novelty × repeat × exact)', () => {
  it.each([
    // tier → importance prior: a prior, not a gate
    ['a must memory keeps its relevance', { tier: 'must' as const }, {}, 0.8],
    ['a nice memory scores 0.9 of it', { tier: 'nice' as const }, {}, 0.72],
    ['an unknown memory scores 0.8 of it', { tier: 'unknown' as const }, {}, 0.64],
    // scope, recency and exact multiply in as search measured them
    ['scope and recency multiply in', { tier: 'must' as const }, { scope: 0.5, recency: 0.9 }, 0.36],
    ['an exact phrase boosts', { tier: 'must' as const }, { exact: 1.15 }, 0.92],
  ])('%s', (_name, memory, fields, score) => {
    const scored = scoreCandidate(hit(memory, fields), context());
    expect(scored.factors.score).toBeCloseTo(score, 10);
    expect(scored.factors.repeat).toBe(1);
    expect(scored.factors.cooldown).toBe(1);
    expect(scored.unpenalizedScore).toBeCloseTo(score, 10);
  });

  it('lowers novelty for a memory retrieved often, down to 0.9 at most', () => {
    const fresh = scoreCandidate(hit({ tier: 'must', retrievalCount: 0 }), context());
    const worn = scoreCandidate(hit({ tier: 'must', retrievalCount: 10_000 }), context());
    expect(fresh.factors.novelty).toBe(1);
    expect(worn.factors.novelty).toBeCloseTo(0.9, 6);
    expect(worn.factors.score).toBeCloseTo(0.72, 6);
  });

  it.each([
    // [name, memory, fields, queryWordCount, repeated, exemption, repeat factor]
    ['penalises a memory injected within the window', {}, {}, 2, true, null, 0.35],
    ['exempts a hard rule', { hardRule: true }, {}, 2, true, 'hard_rule', 1],
    ['exempts a pinned memory', { pinned: true }, {}, 2, true, 'pinned', 1],
    ['exempts an exact phrase hit', {}, { exact: 1.15 }, 2, true, 'exact_hit', 1],
    ['exempts a memory holding all of three or more query words', {}, { coverage: 1 }, 3, true, 'exact_hit', 1],
    ['does not exempt all of two query words', {}, { coverage: 1 }, 2, true, null, 0.35],
    ['leaves a memory outside the window alone', {}, {}, 2, false, null, 1],
  ] as const)('%s', (_name, memory, fields, queryWordCount, repeated, exemption, repeat) => {
    const scored = scoreCandidate(
      hit({ tier: 'must', ...memory }, fields),
      context({ queryWordCount, recentlyInjected: new Set(repeated ? ['m'] : []) }),
    );
    expect(scored.repeated).toBe(repeated);
    expect(scored.repeatExemption).toBe(exemption);
    expect(scored.factors.repeat).toBe(repeat);
    expect(scored.factors.score).toBeCloseTo(scored.unpenalizedScore * repeat, 10);
  });

  it.each([
    // [decay, seconds since last retrieval, cooldown factor]
    ['binary', 60, 0],
    ['binary', 1800, 1],
    ['linear', 900, 0.5],
    ['exponential', 1800, 1 - Math.exp(-1)],
    ['none', 1, 1],
  ] as const)('applies %s cooldown %i s after retrieval to relevance before the threshold', (decay, seconds, factor) => {
    const lastRetrievedAt = new Date(NOW.getTime() - seconds * 1000).toISOString();
    const scored = scoreCandidate(hit({ tier: 'must', lastRetrievedAt }), context({ cooldown: { decay, seconds: 1800 } }));
    expect(scored.factors.cooldown).toBeCloseTo(factor, 10);
    expect(scored.factors.relevance).toBe(0.8);
    expect(scored.factors.effectiveRelevance).toBeCloseTo(0.8 * factor, 10);
    expect(scored.factors.score).toBeCloseTo(0.8 * factor, 10);
  });

  it('gives a never-retrieved memory its full score under any cooldown', () => {
    const scored = scoreCandidate(
      hit({ tier: 'must', lastRetrievedAt: null }),
      context({ cooldown: { decay: 'binary', seconds: 1800 } }),
    );
    expect(scored.factors.cooldown).toBe(1);
  });
});
