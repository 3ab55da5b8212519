import { describe, expect, it } from 'vitest';

import { FUSED_SPREAD, fusedRelevance, fusedScale, LIFT_FROM, liftedLevel } from './fused-relevance.js';

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

describe('liftedLevel: a search that matched well keeps more of its hits high', () => {
  it.each([
    [0, 0],
    [0.3, 0.3],
    [0.55, 0.55],
    [0.6, 0.6],
    [0.65, 0.6978],
    [0.7, 0.7814],
    [0.8, 0.9067],
    [0.9, 0.9782],
    [1, 1],
  ])('shows a level of %d as %d', (level, shown) => {
    expect(liftedLevel(level)).toBeCloseTo(shown, 4);
  });

  it('never lowers a level, never passes 1, and keeps every two levels apart', () => {
    let previous = -Infinity;
    for (let step = 0; step <= 100; step++) {
      const level = step / 100;
      const shown = liftedLevel(level);
      expect(shown).toBeGreaterThanOrEqual(level);
      expect(shown).toBeLessThanOrEqual(1);
      expect(shown).toBeGreaterThan(previous);
      previous = shown;
    }
  });

  it('starts where active recall does: no search below its threshold shows more than before', () => {
    expect(liftedLevel(LIFT_FROM)).toBe(LIFT_FROM);
    expect(liftedLevel(LIFT_FROM - 1e-9)).toBe(LIFT_FROM - 1e-9);
  });
});

describe('fusedRelevance: the fused order on the calibrated scale', () => {
  const scale = { best: 20, level: 0.8 };

  it('gives the best hit the lifted level, and 1/e of it FUSED_SPREAD points below', () => {
    expect(fusedRelevance(20, scale)).toBe(liftedLevel(0.8));
    expect(fusedRelevance(20 - FUSED_SPREAD, scale)).toBeCloseTo(liftedLevel(0.8) / Math.E, 12);
  });

  it.each([
    // level, fused points below the best, relevance: a hit 7 points down in a search at 0.8
    // clears active recall's 0.6 (0.58 before the lift); a weak search's hits stay below it.
    [0.8, 0, 0.9067],
    [0.8, 4, 0.756],
    [0.8, 7, 0.6596],
    [0.7, 4, 0.6515],
    [0.65, 2, 0.6372],
    [0.6, 0, 0.6],
    [0.5, 0, 0.5],
    [0.5, 3, 0.4363],
  ])('at level %d, a hit %d fused points below the best shows %d', (level, below, relevance) => {
    expect(fusedRelevance(20 - below, { best: 20, level })).toBeCloseTo(relevance, 4);
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

  it('keeps ratios: one fused point costs every hit the same share, whatever the level, so the lift reorders nothing', () => {
    const low = { best: 20, level: 0.3 };
    expect(fusedRelevance(15, scale) / fusedRelevance(16, scale)).toBeCloseTo(
      fusedRelevance(15, low) / fusedRelevance(16, low),
      12,
    );
    expect(fusedRelevance(15, scale) / fusedRelevance(16, scale)).toBeCloseTo(Math.exp(-1 / FUSED_SPREAD), 12);
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
