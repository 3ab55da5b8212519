import { describe, expect, it } from 'vitest';

import {
  ALPHA,
  percentileOf,
  REFERENCE,
  shiftRelevance,
  storeShift,
  YOUNG_STORE,
  youngStoreWeight,
} from './store-calibration.js';

describe('the young-store ramp', () => {
  it.each([
    [0, 0],
    [YOUNG_STORE.from, 0],
    [(YOUNG_STORE.from + YOUNG_STORE.full) / 2, 0.5],
    [YOUNG_STORE.full, 1],
    [100_000, 1],
  ])('gives a sample of %d memories the weight %d', (sampled, weight) => {
    expect(youngStoreWeight(sampled)).toBeCloseTo(weight, 10);
  });
});

describe('the shift of one query', () => {
  /** `size` relevances whose top tenth is `top` and the rest 0.2: the 90th percentile is `top`. */
  const spread = (top: number, size = 300) => Array.from({ length: size }, (_, i) => (i >= Math.floor(0.9 * size) ? top : 0.2));

  it('reads the 90th percentile of the sample', () => {
    expect(percentileOf(spread(0.7), 0.9)).toBe(0.7);
    expect(percentileOf(spread(0.7), 0.5)).toBe(0.2);
    expect(percentileOf([], 0.9)).toBeNull();
  });

  it('takes nothing off when the percentile is at or below the reference', () => {
    expect(storeShift(spread(REFERENCE)).shift).toBe(0);
  });

  it('takes alpha times the excess off on a grown store, and half of it halfway up the ramp', () => {
    expect(storeShift(spread(0.7)).shift).toBeCloseTo(ALPHA * (0.7 - REFERENCE), 10);
    expect(storeShift(spread(0.7, (YOUNG_STORE.from + YOUNG_STORE.full) / 2)).shift).toBeCloseTo(
      (ALPHA * (0.7 - REFERENCE)) / 2,
      10,
    );
  });

  it('leaves a young store on the fixed curve', () => {
    expect(storeShift(spread(0.9, YOUNG_STORE.from)).shift).toBe(0);
  });

  it('never takes relevance below 0', () => {
    expect(shiftRelevance(0.1, 0.15)).toBe(0);
    expect(shiftRelevance(0.7, 0.15)).toBeCloseTo(0.55, 10);
  });
});
