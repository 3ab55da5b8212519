import { describe, expect, it } from 'vitest';

import { FUSED_SPREAD, fusedRelevance, fusedScale } from './fused-relevance.js';

describe('fusedScale: what a search the graph ranks measures once', () => {
  it('takes the best fused score and the best calibrated relevance, from any candidates', () => {
    const scale = fusedScale([
      { fused: 12, relevance: 0.8 },
      { fused: 19, relevance: 0.55 },
      { fused: 4, relevance: 0.2 },
    ]);
    expect(scale).toEqual({ best: 19, level: 0.8 });
  });
});

describe('fusedRelevance: the fused order on the calibrated scale', () => {
  const scale = { best: 20, level: 0.8 };

  it('gives the best hit the search level, and 1/e of it FUSED_SPREAD points below', () => {
    expect(fusedRelevance(20, scale)).toBe(0.8);
    expect(fusedRelevance(20 - FUSED_SPREAD, scale)).toBeCloseTo(0.8 / Math.E, 12);
  });

  it('falls strictly with the fused score and stays above 0', () => {
    let previous = Infinity;
    for (let fused = 20; fused >= -60; fused -= 0.5) {
      const relevance = fusedRelevance(fused, scale);
      expect(relevance).toBeLessThan(previous);
      expect(relevance).toBeGreaterThan(0);
      previous = relevance;
    }
  });

  it('keeps ratios: one fused point costs every hit the same share, whatever the level', () => {
    const low = { best: 20, level: 0.3 };
    expect(fusedRelevance(15, scale) / fusedRelevance(16, scale)).toBeCloseTo(
      fusedRelevance(15, low) / fusedRelevance(16, low),
      12,
    );
  });

  it('shows nothing high when nothing matched well: the level caps every hit', () => {
    const weak = fusedScale([
      { fused: 25, relevance: 0.3 },
      { fused: 24, relevance: 0.25 },
    ]);
    expect(fusedRelevance(25, weak)).toBe(0.3);
    expect(fusedRelevance(24, weak)).toBeLessThan(0.3);
  });

  it('reads a score it cannot order as no relevance', () => {
    expect(fusedRelevance(Number.NaN, scale)).toBe(0);
  });
});
