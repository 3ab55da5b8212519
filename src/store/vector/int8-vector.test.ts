import { describe, expect, it } from 'vitest';

import { writeInt8 } from './int8-vector.js';

describe('signed-byte vectors', () => {
  it('scale the largest component to 127 and give the factor that undoes it', () => {
    const bytes = new Int8Array(6);
    const scale = writeInt8(Float32Array.from([0.5, -0.3, 0]), bytes, 3);
    expect(Array.from(bytes)).toEqual([0, 0, 0, 127, -76, 0]);
    expect(scale).toBeCloseTo(0.5 / 127, 9);
  });

  it('give a dot product within a percent of the float one', () => {
    const a = Float32Array.from({ length: 512 }, (_, i) => Math.sin(i * 0.7));
    const b = Float32Array.from({ length: 512 }, (_, i) => Math.sin(i * 0.7 + 0.3));
    const qa = new Int8Array(512);
    const qb = new Int8Array(512);
    const scale = writeInt8(a, qa, 0) * writeInt8(b, qb, 0);
    const estimate = qa.reduce((sum, value, i) => sum + value * (qb[i] as number), 0) * scale;
    const exact = a.reduce((sum, value, i) => sum + value * (b[i] as number), 0);
    expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.01);
  });

  it('write zeros and a zero factor for the zero vector', () => {
    const bytes = Int8Array.from([5, 5, 5, 5]); // a previous vector's bytes, as in a reused slot
    expect(writeInt8(new Float32Array(2), bytes, 1)).toBe(0);
    expect(Array.from(bytes)).toEqual([5, 0, 0, 5]);
  });
});
