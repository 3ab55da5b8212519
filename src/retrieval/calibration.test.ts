import { describe, expect, it } from 'vitest';

import { calibrate, CALIBRATION_CURVE } from './calibration.js';

describe('calibrated relevance', () => {
  it('passes through every anchor of the curve', () => {
    for (const [raw, relevance] of CALIBRATION_CURVE) expect(calibrate(raw)).toBeCloseTo(relevance, 12);
  });

  it('puts the 99th percentile of unrelated pairs at 0.5 and the evidence quartile at 0.6', () => {
    expect(calibrate(0.29)).toBeCloseTo(0.5, 12);
    expect(calibrate(0.395)).toBeCloseTo(0.6, 12);
  });

  it('is monotone and stays within [0, 1]', () => {
    let previous = -1;
    for (let raw = -0.5; raw <= 1.5; raw += 0.01) {
      const value = calibrate(raw);
      expect(value).toBeGreaterThanOrEqual(previous);
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
      previous = value;
    }
  });
});
