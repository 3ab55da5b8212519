import { describe, expect, it } from 'vitest';

import { memorySimilarity } from './similarity.js';

describe('memory similarity', () => {
  const texts = new Map([
    ['a', 'Deploys go through the staging cluster first'],
    ['b', 'Deploys go through the staging cluster first.'],
    ['c', 'The cat likes tuna'],
    ['d', 'Releases ship via staging before production'],
  ]);

  it('counts identical wording as identical without vectors', () => {
    expect(memorySimilarity(texts, new Map())('a', 'b')).toBe(1);
  });

  it('is 0 for texts sharing no content words and no vectors', () => {
    expect(memorySimilarity(texts, new Map())('a', 'c')).toBe(0);
  });

  it('uses the cosine of the vectors when it is higher than the word overlap', () => {
    const vectors = new Map([
      ['a', Float32Array.from([1, 0])],
      ['d', Float32Array.from([0.96, 0.28])],
    ]);
    expect(memorySimilarity(texts, vectors)('a', 'd')).toBeCloseTo(0.96, 6);
  });

  it('is symmetric and 1 for a memory with itself', () => {
    const similarity = memorySimilarity(texts, new Map());
    expect(similarity('a', 'd')).toBe(similarity('d', 'a'));
    expect(similarity('c', 'c')).toBe(1);
  });
});
