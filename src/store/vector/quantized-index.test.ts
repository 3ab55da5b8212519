import { describe, expect, it } from 'vitest';

import { gaussian, seededRandom } from '../../../test/fixtures/random.js';
import type { AdmittedSet } from './admitted-set.js';
import { int8EntryBlob } from './int8-entry.js';
import { binaryCode, type EntryReader, prefixBytes, QuantizedIndex } from './quantized-index.js';

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
      opened.addStored(rowid, int8EntryBlob(vector), binaryCode(vector));
    });
    for (const query of clustered(20, 12, random)) expect(opened.nearestTo(query, 10)).toEqual(built.nearestTo(query, 10));
    expect(() => opened.addStored(1, new Uint8Array(100), new Uint32Array(16))).toThrow(/stored entry of 100 bytes/);
  });

  /**
   * An index of `vectors` (rowid = position + 1) opened from their prefixes, with a reader that
   * counts what it reads; `file` is what the reader finds (a test adds what it writes later).
   */
  function openedFromPrefixes(vectors: Float32Array[], unusable: ReadonlySet<number> = new Set()) {
    const rowids = vectors.map((_, i) => i + 1);
    const file = new Map(vectors.map((vector, i) => [i + 1, vector]));
    const prefixes = Buffer.concat(vectors.map((vector) => Buffer.from(binaryCode(vector).buffer, 0, prefixBytes(512))));
    const reads: number[][] = [];
    const reader: EntryReader = (wanted) => {
      const list = Array.from(wanted);
      reads.push(list);
      return {
        entries: Buffer.concat(
          list.map((rowid) => (unusable.has(rowid) ? Buffer.alloc(516) : int8EntryBlob(file.get(rowid) as Float32Array))),
        ),
        unusable: list.flatMap((rowid, r) => (unusable.has(rowid) ? [r] : [])),
      };
    };
    return { index: QuantizedIndex.fromPrefixes(512, rowids, prefixes, reader, 16), reads, file };
  }

  it('opened from prefixes alone, reads only the entries a search shortlists, and ranks as one built from the vectors', () => {
    const random = seededRandom(22);
    const vectors = clustered(6_000, 12, random);
    const built = new QuantizedIndex(512);
    vectors.forEach((vector, i) => built.add(i + 1, vector));
    const { index, reads } = openedFromPrefixes(vectors);
    expect(index.size).toBe(6_000);
    expect(index.whole).toBe(false);
    const queries = clustered(40, 12, random);
    expect(index.nearestTo(queries[0] as Float32Array, 10)).toEqual(built.nearestTo(queries[0] as Float32Array, 10));
    // The first stage's shortlist (a 32nd of the index, at least 4 a result asked for), read once.
    expect(reads.flat().length).toBe(6_000 / 32 + 0.5);
    for (const query of queries) expect(index.nearestTo(query, 10)).toEqual(built.nearestTo(query, 10));
    // Once an eighth had been read one search at a time, the rest was read in one pass.
    expect(index.whole).toBe(true);
    const read = reads.flat();
    expect(new Set(read).size).toBe(6_000);
    expect(read.length).toBeLessThan(6_000 + 6_000 / 8 + 200);
  });

  it('keeps what it has read through removals and additions while it is opened from prefixes', () => {
    const random = seededRandom(23);
    const vectors = clustered(5_000, 8, random);
    const { index, file } = openedFromPrefixes(vectors);
    const built = new QuantizedIndex(512);
    vectors.forEach((vector, i) => built.add(i + 1, vector));
    const queries = clustered(12, 8, random);
    index.nearestTo(queries[0] as Float32Array, 10); // some entries read, most not
    for (const rowid of [1, 2_500, 4_999]) {
      index.remove(rowid);
      built.remove(rowid);
    }
    const late = clustered(3, 8, random);
    late.forEach((vector, i) => {
      file.set(9_000 + i, vector);
      index.addStored(9_000 + i, int8EntryBlob(vector), binaryCode(vector));
      built.add(9_000 + i, vector);
    });
    for (const query of [...queries, ...late]) expect(index.nearestTo(query, 10)).toEqual(built.nearestTo(query, 10));
  });

  it('leaves a vector its reader finds unusable out of every ranking', () => {
    const random = seededRandom(24);
    const vectors = clustered(4_800, 6, random);
    const query = clustered(1, 6, random)[0] as Float32Array;
    const nearest = new QuantizedIndex(512);
    vectors.forEach((vector, i) => nearest.add(i + 1, vector));
    const damaged = new Set(nearest.nearestTo(query, 5));
    const { index } = openedFromPrefixes(vectors, damaged);
    const found = index.nearestTo(query, 50);
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((rowid) => damaged.has(rowid))).toEqual([]);
  });

  it('refuses a vector of another length', () => {
    expect(() => new QuantizedIndex(64).add(1, new Float32Array(32))).toThrow(/vector of 32 dimensions in an index of 64/);
  });
});
