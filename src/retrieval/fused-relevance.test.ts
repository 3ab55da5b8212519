import { describe, expect, it } from 'vitest';

import { FUSED_RELEVANCE_CURVE, fusedRelevance } from './fused-relevance.js';

describe('fusedRelevance: the fused score on the calibrated scale', () => {
  it('passes through every anchor', () => {
    for (const [fused, relevance] of FUSED_RELEVANCE_CURVE) expect(fusedRelevance(fused)).toBeCloseTo(relevance, 12);
  });

  it('rises strictly from far below the first anchor to far above the last, inside (0, 1)', () => {
    let previous = -Infinity;
    for (let fused = -40; fused <= 60; fused += 0.25) {
      const relevance = fusedRelevance(fused);
      expect(relevance).toBeGreaterThan(previous);
      expect(relevance).toBeGreaterThan(0);
      expect(relevance).toBeLessThan(1);
      previous = relevance;
    }
  });

  it('joins its tails to the anchors without a step', () => {
    const [first] = FUSED_RELEVANCE_CURVE;
    const last = FUSED_RELEVANCE_CURVE.at(-1);
    for (const [fused] of [first, last].filter((point) => point !== undefined)) {
      expect(Math.abs(fusedRelevance(fused + 1e-9) - fusedRelevance(fused - 1e-9))).toBeLessThan(1e-9);
    }
  });

  it('puts a typical best hit near 0.9 and a weak candidate well under the intrusive threshold', () => {
    expect(fusedRelevance(19.6)).toBeGreaterThan(0.85);
    expect(fusedRelevance(2)).toBeLessThan(0.4);
  });

  it('reads a score it cannot order as no relevance', () => {
    expect(fusedRelevance(Number.NaN)).toBe(0);
    expect(fusedRelevance(-Infinity)).toBe(0);
    expect(fusedRelevance(Infinity)).toBe(1);
  });
});
