import { describe, expect, it } from 'vitest';

import { gaussian, seededRandom } from '../../../test/fixtures/random.js';
import type { AdmittedSet } from './admitted-set.js';
import { int8EntryBlob } from './int8-entry.js';
import { binaryCode, QuantizedIndex } from './quantized-index.js';

function admittedSet(admits: (rowid: number) => boolean, maxRowid: number): AdmittedSet {
  const bits = Uint8Array.from({ length: maxRowid + 1 }, (_, rowid) => (admits(rowid) ? 1 : 0));
  return { bits, count: bits.reduce((sum, bit) => sum + bit, 0), version: 1 };
}

function randomVector(length: number, random: () => number): Float32Array {
  return Float32Array.from({ length }, () => random() * 2 - 1);
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

describe('the quantized index', () => {
  it('ranks nearly all of the exact top 10 among its first candidates on clustered vectors', () => {
    const random = seededRandom(3);
    const vectors = clustered(20_050, 20, random);
    const queries = vectors.splice(20_000, 50);
    const index = new QuantizedIndex(512, 64); // a small capacity, so it has to grow
    vectors.forEach((vector, rowid) => index.add(rowid, vector));
    expect(index.size).toBe(20_000);

    let kept = 0;
    let keptFirst = 0;
    for (const query of queries) {
      const exact = vectors
        .map((vector, rowid) => ({ rowid, similarity: dot(query, vector) }))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, 10);
      const ranked = index.nearestTo(query, 400);
      expect(new Set(ranked).size).toBe(400);
      const candidates = new Set(ranked);
      const first = new Set(ranked.slice(0, 20)); // what the vector table re-scores first for 10
      kept += exact.filter(({ rowid }) => candidates.has(rowid)).length;
      keptFirst += exact.filter(({ rowid }) => first.has(rowid)).length;
    }

    expect(kept / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
    expect(keptFirst / (queries.length * 10)).toBeGreaterThanOrEqual(0.9);
  });

  it('returns everything when k exceeds the size, nearest first, and nothing from an empty index', () => {
    const index = new QuantizedIndex(32);
    expect(index.nearestTo(new Float32Array(32), 5)).toEqual([]);
    const query = Float32Array.from({ length: 32 }, (_, i) => (i < 16 ? 1 : -1));
    index.add(
      7,
      query.map((value) => -value),
    );
    index.add(9, query);
    index.add(
      8,
      query.map((value, i) => (i < 4 ? -value : value)),
    );
    expect(index.nearestTo(query, 5)).toEqual([9, 8, 7]);
  });

  it("ranks by the query's magnitudes, which its sign bits alone would lose", () => {
    const index = new QuantizedIndex(32);
    const query = Float32Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0.01));
    const agreeing = (dimension: number) => Float32Array.from({ length: 32 }, (_, i) => (i === dimension ? 1 : -0.01));
    index.add(1, agreeing(1)); // agrees on a small component only
    index.add(2, agreeing(0)); // agrees on the large one
    index.add(3, agreeing(-1));
    expect(index.nearestTo(query, 1)).toEqual([2]);
  });

  it('answers a repeated query alike, and sees vectors added since', () => {
    const random = seededRandom(5);
    const index = new QuantizedIndex(512); // 512 bits: all three stages
    for (let rowid = 1; rowid <= 10_000; rowid++) index.add(rowid, randomVector(512, random));
    const query = randomVector(512, random);

    const first = index.nearestTo(query, 10);
    expect(index.nearestTo(query, 10)).toEqual(first);
    expect(index.nearestTo(query, 40)).toEqual(expect.arrayContaining(first));
    index.add(99_999, query);

    expect(index.nearestTo(query, 10)[0]).toBe(99_999);
  });

  it('keeps the widest ranking of the latest query for narrower searches to read', () => {
    const random = seededRandom(6);
    const index = new QuantizedIndex(512);
    for (let rowid = 1; rowid <= 2_000; rowid++) index.add(rowid, randomVector(512, random));
    const query = randomVector(512, random);
    const odd = admittedSet((rowid) => rowid % 2 === 1, 2_000);
    expect(index.rankedBefore(query, 50)).toBeNull();

    const wide = index.nearestTo(query, 100);
    index.nearestTo(query, 100, odd); // narrower: the wide ranking stays
    expect(index.rankedBefore(query, 100)).toEqual(wide);
    expect(index.rankedBefore(query, 101)).toBeNull(); // asked for fewer than that
    expect(index.rankedBefore(randomVector(512, random), 10)).toBeNull(); // another query

    index.add(5_000, query);
    expect(index.rankedBefore(query, 100)).toBeNull(); // the index changed since
    const again = index.nearestTo(query, 100);
    index.remove(5_000);
    expect(again[0]).toBe(5_000);
    expect(index.rankedBefore(query, 100)).toBeNull();
  });

  it('forgets a removed vector, the last one taking its place', () => {
    const index = new QuantizedIndex(32);
    const axis = (dimension: number) => Float32Array.from({ length: 32 }, (_, i) => (i === dimension ? 1 : 0));
    index.add(1, axis(1));
    index.add(2, axis(2));
    index.add(3, axis(3));
    expect(index.nearestTo(axis(1), 1)).toEqual([1]);
    index.remove(1);
    index.remove(42); // not held: nothing happens
    expect(index.size).toBe(2);
    expect(index.nearestTo(axis(1), 3).sort()).toEqual([2, 3]);
    expect(index.nearestTo(axis(3), 1)).toEqual([3]);
  });

  it('ranks alike whether opened from stored entries or built from the vectors', () => {
    const random = seededRandom(21);
    const vectors = clustered(3_000, 12, random);
    const built = new QuantizedIndex(512);
    const opened = new QuantizedIndex(512);
    vectors.forEach((vector, rowid) => {
      built.add(rowid, vector);
      opened.addStored(rowid, int8EntryBlob(vector));
    });
    for (const query of clustered(20, 12, random)) expect(opened.nearestTo(query, 10)).toEqual(built.nearestTo(query, 10));
    expect(() => opened.addStored(1, new Uint8Array(100))).toThrow(/stored entry of 100 bytes/);
  });

  it('takes a run of stored entries larger than its capacity, as it would one at a time', () => {
    const random = seededRandom(22);
    const vectors = clustered(700, 6, random);
    const built = new QuantizedIndex(512);
    vectors.forEach((vector, rowid) => built.add(rowid, vector));
    const opened = new QuantizedIndex(512, 1); // every run below outgrows what it holds
    for (let first = 0; first < vectors.length; first += 300) {
      const run = vectors.slice(first, first + 300);
      const entries = Buffer.concat(run.map((vector) => int8EntryBlob(vector)));
      opened.addStoredRun(
        run.map((_, r) => first + r),
        entries,
      );
    }
    expect(opened.size).toBe(700);
    for (const query of clustered(20, 6, random)) expect(opened.nearestTo(query, 10)).toEqual(built.nearestTo(query, 10));
  });

  it('refuses a vector of another length', () => {
    expect(() => new QuantizedIndex(64).add(1, new Float32Array(32))).toThrow(/vector of 32 dimensions in an index of 64/);
  });
});
