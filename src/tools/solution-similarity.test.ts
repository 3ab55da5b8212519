import { describe, expect, it } from 'vitest';

import { goalSignals, goalSimilarity, goalWords, semanticSimilarity } from './solution-similarity.js';

const signals = (a: string, b: string, cosine: number | null = null) => goalSignals(goalWords(a), goalWords(b), cosine);

describe('solution similarity', () => {
  it("keyword is seed 004's overlap exactly: 1/3 for the worked example", () => {
    expect(goalSimilarity(signals('Write a CSV parser', 'Parse a CSV file'), 'keyword')).toBeCloseTo(1 / 3, 10);
    expect(goalSimilarity(signals('Fetch web pages', 'Retrieve HTML content'), 'keyword')).toBe(0);
  });

  it('maps cosine onto the threshold scale through the measured anchors', () => {
    expect(semanticSimilarity(0.3)).toBe(0);
    expect(semanticSimilarity(0.42)).toBe(0);
    expect(semanticSimilarity(0.55)).toBeCloseTo(0.3, 10);
    expect(semanticSimilarity(0.8)).toBeCloseTo(0.8, 10);
    expect(semanticSimilarity(1)).toBe(1);
    expect(semanticSimilarity(-0.5)).toBe(0);
  });

  it('semantic reads the cosine only, and is 0 without vectors', () => {
    expect(goalSimilarity(signals('a b', 'c d', 0.8), 'semantic')).toBeCloseTo(0.8, 10);
    expect(goalSimilarity(signals('csv parser', 'csv parser'), 'semantic')).toBe(0);
  });

  it('hybrid adds stemmed word overlap to semantic similarity, capped at 1', () => {
    // "deploying" and "deploy" share a stem, so stems overlap where words do not.
    const deploying = signals('deploying the service', 'deploy the service', 0.55);
    expect(deploying.keyword).toBeCloseTo(1 / 2, 10);
    expect(deploying.stemmed).toBe(1);
    expect(goalSimilarity(deploying, 'hybrid')).toBe(1);
    expect(goalSimilarity(signals('deploying the service', 'deploy the app', 0.55), 'hybrid')).toBeCloseTo(0.5 + 0.3, 10);
    expect(goalSimilarity(signals('Fetch web pages', 'Retrieve HTML content', 0.57), 'hybrid')).toBeCloseTo(
      semanticSimilarity(0.57),
      10,
    );
    expect(goalSimilarity(signals('Write a CSV parser', 'Parse a CSV file'), 'hybrid')).toBeCloseTo(1 / 3, 10);
  });
});
