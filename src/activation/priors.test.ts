import { describe, expect, it } from 'vitest';

import { IMPORTANCE_PRIOR, noveltyFactor } from './priors.js';

describe('importance prior', () => {
  it('orders the tiers must > nice > unknown without zeroing any', () => {
    expect(IMPORTANCE_PRIOR.must).toBeGreaterThan(IMPORTANCE_PRIOR.nice);
    expect(IMPORTANCE_PRIOR.nice).toBeGreaterThan(IMPORTANCE_PRIOR.unknown);
    expect(IMPORTANCE_PRIOR.unknown).toBeGreaterThan(0.5);
  });
});

describe('novelty', () => {
  it('is 1 for a memory never retrieved and falls towards 0.9', () => {
    expect(noveltyFactor(0)).toBe(1);
    expect(noveltyFactor(10)).toBeCloseTo(1 - 0.1 * (1 - Math.exp(-1)), 12);
    expect(noveltyFactor(1000)).toBeCloseTo(0.9, 6);
  });

  it('never rises with more retrievals', () => {
    for (let count = 0; count < 50; count++) expect(noveltyFactor(count + 1)).toBeLessThan(noveltyFactor(count));
  });
});
