import { describe, expect, it } from 'vitest';

import { allPositions, scoresAsDistances, smallestPositions } from './smallest.js';

describe('counting selection', () => {
  it('picks the positions of the k smallest, keeping the earlier of tied ones', () => {
    const distances = Uint16Array.from([5, 1, 3, 3, 0, 9, 3]);
    expect(Array.from(smallestPositions(distances, distances.length, 3, 9))).toEqual([1, 2, 4]);
    expect(Array.from(smallestPositions(distances, 4, 2, 9))).toEqual([1, 2]);
  });

  it('returns every position when k is not smaller than the count', () => {
    expect(Array.from(smallestPositions(Uint16Array.from([4, 2]), 2, 5, 4))).toEqual([0, 1]);
    expect(Array.from(allPositions(3))).toEqual([0, 1, 2]);
  });

  it('turns scores into distances with the best at 0 and the worst at 65535', () => {
    expect(Array.from(scoresAsDistances(Float32Array.from([0.5, 1, 0])))).toEqual([32768, 0, 65535]);
    expect(Array.from(scoresAsDistances(Float32Array.from([2, 2])))).toEqual([0, 0]);
  });
});
