import { describe, expect, it } from 'vitest';

import { FloatVectors, squaredLength } from './float-vectors.js';

const v = (...values: number[]) => Float32Array.from(values);

describe('float vectors held in memory', () => {
  it('holds, replaces and lets go of vectors by rowid, keeping each id with its vector', () => {
    const held = new FloatVectors(2, 1);
    held.set(10, 'a', v(1, 0));
    held.set(11, 'b', v(0, 1));
    held.set(12, 'c', v(1, 1)); // past the first capacity
    held.set(10, 'a', v(3, 4)); // replaced in place
    expect(held.size).toBe(3);
    expect(held.byteLength).toBe(3 * 2 * 4);
    held.delete(10); // the last one takes its place
    held.delete(99); // never held: nothing happens
    expect(held.size).toBe(2);
    expect(held.has(10)).toBe(false);
    expect(held.vector(10)).toBeUndefined();
    expect(held.idOf(12)).toBe('c');
    expect(held.vector(12)).toEqual(v(1, 1));
    expect(held.score(11, v(0, 2), squaredLength(v(0, 2)))).toEqual({ id: 'b', similarity: 1 });
    expect(held.score(12, v(1, 0), 1)?.similarity).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('gives out copies, so a caller cannot change what it holds', () => {
    const held = new FloatVectors(2);
    held.set(1, 'a', v(1, 2));
    (held.vector(1) as Float32Array)[0] = 9;
    expect(held.vector(1)).toEqual(v(1, 2));
  });

  it('scores a vector of zeros as null, as SQLite turns its NaN into NULL', () => {
    const held = new FloatVectors(2);
    held.set(1, 'zero', v(0, 0));
    expect(held.score(1, v(1, 0), 1)).toEqual({ id: 'zero', similarity: null });
  });

  it('refuses a vector of another length', () => {
    expect(() => new FloatVectors(3).set(1, 'a', v(1, 2))).toThrow(/2 dimensions among vectors of 3/);
  });
});
