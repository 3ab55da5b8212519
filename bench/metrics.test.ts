import { describe, expect, it } from 'vitest';

import { allAtK, averageScores, distinct, hitAtK, ndcgAtK, recallAtK } from './metrics.js';

const relevant = new Set(['b', 'd']);
const ranked = ['a', 'b', 'c', 'd', 'e'];

describe('recallAtK', () => {
  it('counts the share of relevant ids within the cut-off', () => {
    expect(recallAtK(ranked, relevant, 1)).toBe(0);
    expect(recallAtK(ranked, relevant, 2)).toBe(0.5);
    expect(recallAtK(ranked, relevant, 4)).toBe(1);
    expect(recallAtK(ranked, relevant, 25)).toBe(1);
  });

  it('counts a relevant id once even when it is ranked twice', () => {
    expect(recallAtK(['b', 'b', 'x'], relevant, 3)).toBe(0.5);
  });

  it('is 0 when nothing is relevant', () => {
    expect(recallAtK(ranked, new Set(), 5)).toBe(0);
  });
});

describe('hitAtK and allAtK', () => {
  it('hits as soon as one relevant id is in the cut-off', () => {
    expect(hitAtK(ranked, relevant, 1)).toBe(0);
    expect(hitAtK(ranked, relevant, 2)).toBe(1);
  });

  it('needs every relevant id for allAtK', () => {
    expect(allAtK(ranked, relevant, 2)).toBe(0);
    expect(allAtK(ranked, relevant, 4)).toBe(1);
    expect(allAtK(ranked, new Set(), 4)).toBe(0);
  });
});

describe('ndcgAtK', () => {
  it('is 1 for an ideal ranking and 0 without relevant ids in the cut-off', () => {
    expect(ndcgAtK(['b', 'd', 'a'], relevant, 3)).toBe(1);
    expect(ndcgAtK(['a', 'c', 'e', 'b'], relevant, 3)).toBe(0);
  });

  it('discounts by log2 of the rank plus one', () => {
    // relevant at ranks 2 and 4: (1/log2 3 + 1/log2 5) / (1 + 1/log2 3)
    const expected = (1 / Math.log2(3) + 1 / Math.log2(5)) / (1 + 1 / Math.log2(3));
    expect(ndcgAtK(ranked, relevant, 5)).toBeCloseTo(expected, 12);
  });

  it('normalises by the ideal ranking cut at k when there are more relevant ids than k', () => {
    expect(ndcgAtK(['b'], new Set(['b', 'd', 'e']), 1)).toBe(1);
  });

  it('gives a repeated relevant id its gain only once', () => {
    expect(ndcgAtK(['b', 'b'], relevant, 2)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 12);
  });
});

describe('distinct', () => {
  it('keeps the order of first appearance', () => {
    expect(distinct(['s2', 's1', 's2', 's3', 's1'])).toEqual(['s2', 's1', 's3']);
  });
});

describe('averageScores', () => {
  it('averages each metric overall and per group', () => {
    const result = averageScores([
      { group: 'x', scores: { 'recall@1': 1, 'hit@1': 1 } },
      { group: 'x', scores: { 'recall@1': 0, 'hit@1': 1 } },
      { group: 'y', scores: { 'recall@1': 0.5, 'hit@1': 0 } },
    ]);
    expect(result.overall).toEqual({ 'recall@1': 0.5, 'hit@1': 2 / 3 });
    expect(result.byGroup).toEqual({ x: { 'recall@1': 0.5, 'hit@1': 1 }, y: { 'recall@1': 0.5, 'hit@1': 0 } });
    expect(result.counts).toEqual({ overall: 3, byGroup: { x: 2, y: 1 } });
  });
});
