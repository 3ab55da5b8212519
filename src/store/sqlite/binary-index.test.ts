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

function hamming(a: Uint32Array, b: Uint32Array): number {
  let bits = 0;
  for (let w = 0; w < a.length; w++) {
    let x = (a[w] as number) ^ (b[w] as number);
    while (x) {
      bits += x & 1;
      x >>>= 1;
    }
  }
  return bits;
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
  it('returns exactly the k nearest codes by Hamming distance', () => {
    const random = seeded(3);
    const index = new BinaryIndex(2, 4); // a small capacity, so it has to grow
    const codes = new Map<number, Uint32Array>();
    for (let rowid = 1; rowid <= 500; rowid++) {
      const code = binaryCode(randomVector(64, random));
      codes.set(rowid, code);
      index.add(rowid, code);
    }
    expect(index.size).toBe(500);
    const query = binaryCode(randomVector(64, random));
    const found = index.nearest(query, 20);
    expect(found).toHaveLength(20);
    const worstFound = Math.max(...found.map((rowid) => hamming(codes.get(rowid) as Uint32Array, query)));
    const closer = [...codes.entries()].filter(([, code]) => hamming(code, query) < worstFound).map(([rowid]) => rowid);
    for (const rowid of closer) expect(found).toContain(rowid);
  });

  it('returns everything when k exceeds the size, and nothing from an empty index', () => {
    const index = new BinaryIndex(1);
    expect(index.nearest(new Uint32Array(1), 5)).toEqual([]);
    index.add(7, new Uint32Array([1]));
    index.add(9, new Uint32Array([3]));
    expect(index.nearest(new Uint32Array([1]), 5)).toEqual([7, 9]);
  });

  it('answers a repeated query alike, and sees codes added since', () => {
    const random = seeded(5);
    const index = new BinaryIndex(16); // 512 bits: the two-pass scan, whose first pass is kept per query
    for (let rowid = 1; rowid <= 3000; rowid++) index.add(rowid, binaryCode(randomVector(512, random)));
    const query = binaryCode(randomVector(512, random));

    const first = index.nearest(query, 10);
    expect(index.nearest(query, 10)).toEqual(first);
    expect(index.nearest(query, 40)).toEqual(expect.arrayContaining(first));
    index.add(9999, query);

    expect(index.nearest(query, 10)).toContain(9999);
  });

  it('refuses a code of another length', () => {
    expect(() => new BinaryIndex(2).add(1, new Uint32Array(1))).toThrow(/code of 1 words/);
  });
});
