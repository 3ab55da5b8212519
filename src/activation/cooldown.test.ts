import { describe, expect, it } from 'vitest';

import { cooldownDecay, secondsSince } from './cooldown.js';

describe('cooldown decay (seed 001)', () => {
  it.each([
    // [decay, seconds since retrieval, expected multiplier]
    ['binary', 0, 0],
    ['binary', 1799, 0],
    ['binary', 1800, 1],
    ['binary', 86_400, 1],
    ['exponential', 0, 0],
    ['exponential', 1800, 1 - Math.exp(-1)],
    ['exponential', 3600, 1 - Math.exp(-2)],
    ['exponential', 900, 1 - Math.exp(-0.5)],
    ['linear', 0, 0],
    ['linear', 450, 0.25],
    ['linear', 900, 0.5],
    ['linear', 1800, 1],
    ['linear', 7200, 1],
    ['none', 0, 1],
  ] as const)('%s decay after %i s is %f', (decay, elapsed, expected) => {
    expect(cooldownDecay({ decay, seconds: 1800 }, elapsed)).toBeCloseTo(expected, 12);
  });

  it('leaves a memory that was never retrieved at full strength', () => {
    for (const decay of ['binary', 'exponential', 'linear'] as const) {
      expect(cooldownDecay({ decay, seconds: 1800 }, null)).toBe(1);
    }
  });

  it('treats a retrieval time in the future (clock skew) as just now', () => {
    expect(cooldownDecay({ decay: 'linear', seconds: 100 }, -50)).toBe(0);
  });

  it('measures seconds since the last retrieval', () => {
    expect(secondsSince('2026-01-01T00:00:00.000Z', new Date('2026-01-01T00:10:00.000Z'))).toBe(600);
    expect(secondsSince(null, new Date())).toBeNull();
  });
});
