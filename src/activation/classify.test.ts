import { describe, expect, it } from 'vitest';

import { makeMemory } from '../../test/fixtures/memory.js';
import type { ScoreFactorsReceipt } from '../model/receipt.js';
import { classifyCandidates } from './classify.js';
import type { ScoredCandidate } from './score.js';

function candidate(id: string, relevance: number, effectiveRelevance = relevance): ScoredCandidate {
  const factors: ScoreFactorsReceipt = {
    relevance,
    cooldown: relevance === 0 ? 1 : effectiveRelevance / relevance,
    effectiveRelevance,
    scope: 1,
    recency: 1,
    importance: 1,
    novelty: 1,
    repeat: 1,
    exact: 1,
    score: effectiveRelevance,
  };
  return {
    memory: makeMemory({ id }),
    factors,
    repeated: false,
    repeatExemption: null,
    unpenalizedScore: effectiveRelevance,
    via: null,
  };
}

/** Near copies: `a` and `copy-of-a` are 0.95 alike; everything else 0.1. */
const similarity = (x: string, y: string) => ([x, y].sort().join() === 'a,copy-of-a' ? 0.95 : 0.1);

function classify(scored: ScoredCandidate[], backbone: string[] = []) {
  const result = classifyCandidates({ scored, threshold: 0.6, backbone, similarity, nearDuplicate: 0.9 });
  const ids = (list: ScoredCandidate[]) => list.map((c) => c.memory.id);
  return {
    eligible: ids(result.eligible),
    belowThreshold: ids(result.belowThreshold),
    cooledDown: ids(result.cooledDown),
    backboneDuplicates: ids(result.backboneDuplicates),
  };
}

describe('classifyCandidates', () => {
  it.each([
    // [name, relevance, effective relevance (after cooldown), expected class]
    ['takes a candidate at the threshold', 0.6, 0.6, 'eligible'],
    ['takes one above it', 0.9, 0.9, 'eligible'],
    ['leaves out one below it', 0.59, 0.59, 'belowThreshold'],
    ['calls a relevant one pushed under by the cooldown cooled down', 0.9, 0.3, 'cooledDown'],
    ['calls one below the threshold either way below threshold', 0.5, 0.2, 'belowThreshold'],
  ] as const)('%s', (_name, relevance, effective, expected) => {
    const result = classify([candidate('x', relevance, effective)]);
    expect(result[expected]).toEqual(['x']);
    const others = Object.entries(result).filter(([name]) => name !== expected);
    for (const [, ids] of others) expect(ids).toEqual([]);
  });

  it('leaves the working set’s own memories out entirely, and marks their near copies', () => {
    const result = classify([candidate('a', 0.9), candidate('copy-of-a', 0.9), candidate('b', 0.9)], ['a']);
    expect(result).toEqual({ eligible: ['b'], belowThreshold: [], cooledDown: [], backboneDuplicates: ['copy-of-a'] });
  });

  it('keeps near copies eligible when de-duplication is off (no backbone ids)', () => {
    const result = classify([candidate('a', 0.9), candidate('copy-of-a', 0.9)]);
    expect(result.eligible).toEqual(['a', 'copy-of-a']);
  });

  it('checks the threshold before duplication: a weak near copy is below threshold', () => {
    const result = classify([candidate('copy-of-a', 0.4)], ['a']);
    expect(result).toEqual({ eligible: [], belowThreshold: ['copy-of-a'], cooledDown: [], backboneDuplicates: [] });
  });

  it('keeps the input order within each class', () => {
    const result = classify([candidate('c', 0.7), candidate('d', 0.1), candidate('e', 0.8), candidate('f', 0.2)]);
    expect(result.eligible).toEqual(['c', 'e']);
    expect(result.belowThreshold).toEqual(['d', 'f']);
  });
});
