import { describe, expect, it } from 'vitest';

import { binaryCode, BinaryIndex } from './binary-index.js';

function randomVector(length: number, random: () => number): Float32Array {
  return Float32Array.from({ length }, () => random() * 2 - 1);
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
}

function unit(vector: Float32Array): Float32Array {
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return vector.map((value) => value / norm);
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

/**
 * Clustered unit vectors like the scale benchmark's: a few clusters, so each holds hundreds of
 * near neighbours whose order the codes must tell apart.
 */
function clustered(count: number, clusters: number, random: () => number): Float32Array[] {
  const dimensions = 512;
  const centres = Array.from({ length: clusters }, () => unit(Float32Array.from({ length: dimensions }, () => gaussian(random))));
  return Array.from({ length: count }, (_, i) => {
    const centre = centres[i % clusters] as Float32Array;
    return unit(centre.map((value) => value + gaussian(random) / Math.sqrt(dimensions)));
  });
}

describe('binary codes', () => {
  it('keeps one sign bit per dimension, 32 to a word', () => {
    const vector = new Float32Array(40);
    vector[0] = 0.5;
    vector[31] = 0.1;
    vector[33] = 2;
    vector[1] = -1;
    expect(Array.from(binaryCode(vector))).toEqual([(1 | (1 << 31)) >>> 0, 1 << 1]);
  });
});

describe('the binary index', () => {
  it('keeps nearly all of the exact top 10 among its candidates on clustered vectors', () => {
    const random = seeded(3);
    const vectors = clustered(20_050, 20, random);
    const queries = vectors.splice(20_000, 50);
    const index = new BinaryIndex(16, 64); // a small capacity, so it has to grow
    vectors.forEach((vector, rowid) => index.add(rowid, binaryCode(vector)));
    expect(index.size).toBe(20_000);

    let kept = 0;
    for (const query of queries) {
      const exact = vectors
        .map((vector, rowid) => ({ rowid, similarity: dot(query, vector) }))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, 10);
      const candidates = new Set(index.nearestTo(query, 400));
      expect(candidates.size).toBe(400);
      kept += exact.filter(({ rowid }) => candidates.has(rowid)).length;
    }

    expect(kept / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
  });

  it('returns everything when k exceeds the size, and nothing from an empty index', () => {
    const index = new BinaryIndex(1);
    expect(index.nearestTo(new Float32Array(32), 5)).toEqual([]);
    index.add(7, new Uint32Array([1]));
    index.add(9, new Uint32Array([3]));
    expect(
      index.nearestTo(
        Float32Array.from({ length: 32 }, () => 1),
        5,
      ),
    ).toEqual([7, 9]);
  });

  it('ranks a small index by the float query against the whole codes', () => {
    const index = new BinaryIndex(1);
    const query = Float32Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0.01));
    index.add(1, new Uint32Array([0b10])); // agrees on a small component only
    index.add(2, new Uint32Array([0b1])); // agrees on the large one
    index.add(3, new Uint32Array([0]));
    expect(index.nearestTo(query, 1)).toEqual([2]);
  });

  it('answers a repeated query alike, and sees codes added since', () => {
    const random = seeded(5);
    const index = new BinaryIndex(16); // 512 bits: the two-pass scan, whose first pass is kept per query
    for (let rowid = 1; rowid <= 10_000; rowid++) index.add(rowid, binaryCode(randomVector(512, random)));
    const query = randomVector(512, random);

    const first = index.nearestTo(query, 10);
    expect(index.nearestTo(query, 10)).toEqual(first);
    expect(index.nearestTo(query, 40)).toEqual(expect.arrayContaining(first));
    index.add(99_999, binaryCode(query));

    expect(index.nearestTo(query, 10)).toContain(99_999);
  });

  it('refuses a code of another length', () => {
    expect(() => new BinaryIndex(2).add(1, new Uint32Array(1))).toThrow(/code of 1 words/);
  });
});
