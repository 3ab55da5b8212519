import { describe, expect, it } from 'vitest';

import { seededRandom } from '../../../test/fixtures/random.js';
import { KernelMemory, PREFIX_BYTES } from './vector-kernels.js';
import { VECTOR_KERNELS_WASM } from './vector-kernels-wasm.js';

const WORDS = PREFIX_BYTES / 4;

function bitCount(x: number): number {
  let count = 0;
  for (let v = x >>> 0; v !== 0; v >>>= 1) count += v & 1;
  return count;
}

/** Random signed bytes, with the extremes (−128, 127) among them. */
function randomBytes(length: number, random: () => number): Int8Array {
  return Int8Array.from({ length }, (_, i) => (i % 97 === 0 ? -128 : i % 89 === 0 ? 127 : Math.floor(random() * 256) - 128));
}

describe('the vector index kernels', () => {
  it('give every prefix its Hamming distance to the query, and their histogram', () => {
    const random = seededRandom(1);
    const memory = new KernelMemory(512, 300);
    const words = Uint32Array.from({ length: 300 * WORDS }, () => Math.floor(random() * 2 ** 32));
    memory.prefixes.set(words);
    const query = Uint32Array.from({ length: 16 }, () => Math.floor(random() * 2 ** 32));

    const { distances, histogram } = memory.prefixDistances(300, query, null);
    const expected = Array.from({ length: 300 }, (_, p) => {
      let distance = 0;
      for (let w = 0; w < WORDS; w++) distance += bitCount((words[p * WORDS + w] as number) ^ (query[w] as number));
      return distance;
    });
    expect(Array.from(distances)).toEqual(expected);
    const counts = new Array<number>(256).fill(0);
    for (const distance of expected) counts[distance] = (counts[distance] as number) + 1;
    expect(Array.from(histogram)).toEqual(counts);
    // The histogram starts from nothing on every call.
    expect(memory.prefixDistances(300, query, null).histogram.reduce((sum, n) => sum + n, 0)).toBe(300);
  });

  it('give a vector the filter refuses distance 255, by its rowid, and count it there', () => {
    const random = seededRandom(4);
    const memory = new KernelMemory(512, 6);
    memory.prefixes.set(Uint32Array.from({ length: 6 * WORDS }, () => Math.floor(random() * 2 ** 32)));
    memory.rowids.set([10, 3, 7, 2_000, 5, 4]);
    const query = Uint32Array.from({ length: 4 }, () => Math.floor(random() * 2 ** 32));
    const all = Array.from(memory.prefixDistances(6, query, null).distances);
    const bits = new Uint8Array(11);
    for (const rowid of [3, 5, 10]) bits[rowid] = 1; // 2,000 lies past the bits: refused
    const filtered = memory.prefixDistances(6, query, { bits, version: 1 });
    expect(Array.from(filtered.distances)).toEqual([all[0], all[1], 255, 255, all[4], 255]);
    expect(filtered.histogram[255]).toBe(3);
    // A new version of the same filter is loaded again.
    bits[7] = 1;
    expect(memory.prefixDistances(6, query, { bits, version: 2 }).distances[2]).toBe(all[2]);
  });

  it('give the dot product of the query bytes with the vector at each position, for any dimensions', () => {
    const random = seededRandom(2);
    for (const dimensions of [512, 100]) {
      const memory = new KernelMemory(dimensions, 50);
      const vectors = Array.from({ length: 50 }, () => randomBytes(dimensions, random));
      vectors.forEach((vector, p) => memory.bytes.set(vector, p * memory.stride));
      const query = randomBytes(dimensions, random);
      memory.query.set(query);
      const positions = Int32Array.from([7, 0, 49, 7, 23]);

      const dots = memory.int8Dots(positions);
      const expected = Array.from(positions, (p) =>
        (vectors[p] as Int8Array).reduce((sum, value, i) => sum + value * (query[i] as number), 0),
      );
      expect(Array.from(dots)).toEqual(expected);
    }
  });

  it('give each vector the code of its positive bytes, for any dimensions, more vectors than its scratch holds', () => {
    const random = seededRandom(5);
    /** Bit i of the code set when byte i is positive: 0 and every negative byte leave it clear. */
    const codeOf = (bytes: Int8Array, words: number) => {
      const code = new Uint32Array(words);
      bytes.forEach((value, i) => {
        if (value > 0) code[i >> 5] = ((code[i >> 5] as number) | (1 << (i & 31))) >>> 0;
      });
      return Array.from(code);
    };
    for (const dimensions of [512, 100, 16]) {
      const words = Math.ceil(dimensions / 32);
      const count = 3_000; // past the 1,024 words of scratch it starts with
      const memory = new KernelMemory(dimensions, count);
      const vectors = Array.from({ length: count }, (_, p) =>
        p === 0 ? new Int8Array(dimensions) : randomBytes(dimensions, random).map((value, i) => (i % 5 === 0 ? 0 : value)),
      );
      vectors.forEach((vector, p) => memory.bytes.set(vector, p * memory.stride));
      const codes = new Uint32Array((count + 1) * words).fill(0xffffffff);
      memory.writeSignCodes(1, count - 1, words, codes, words); // all but the first, one code in
      for (const p of [1, 2, 700, count - 1]) {
        expect(Array.from(codes.subarray(p * words, (p + 1) * words))).toEqual(codeOf(vectors[p] as Int8Array, words));
      }
      expect(Array.from(codes.subarray(0, words))).toEqual(new Array(words).fill(0xffffffff)); // left as it was
      expect(codes[count * words]).toBe(0xffffffff);
      memory.writeSignCodes(0, 1, words, codes, 0);
      expect(Array.from(codes.subarray(0, words))).toEqual(new Array(words).fill(0)); // all bytes 0: no bit
    }
  });

  it('keeps its vectors when it grows, and takes more candidates than it first made room for', () => {
    const random = seededRandom(3);
    const memory = new KernelMemory(64, 4);
    const vectors = Array.from({ length: 4 }, () => randomBytes(64, random));
    vectors.forEach((vector, p) => memory.bytes.set(vector, p * memory.stride));
    memory.prefixes.set(Uint32Array.from({ length: 4 * WORDS }, (_, i) => i));
    memory.grow(5_000, 4);
    expect(memory.capacity).toBe(5_000);
    expect(Array.from(memory.prefixes.subarray(0, 4 * WORDS))).toEqual(Array.from({ length: 4 * WORDS }, (_, i) => i));

    const query = randomBytes(64, random);
    memory.query.set(query);
    const positions = Int32Array.from({ length: 3_000 }, (_, i) => i % 4);
    const dots = memory.int8Dots(positions);
    const dot = (p: number) => (vectors[p] as Int8Array).reduce((sum, value, i) => sum + value * (query[i] as number), 0);
    expect(dots).toHaveLength(3_000);
    expect([dots[0], dots[1], dots[2], dots[3], dots[2_999]]).toEqual([dot(0), dot(1), dot(2), dot(3), dot(3)]);
  });

  it('are the compiled form of vector-kernels.wat (run `npm run build:kernels` after editing it)', async () => {
    const script = '../../../scripts/compile-vector-kernels.mjs';
    const { compileVectorKernels } = (await import(script)) as { compileVectorKernels: () => Promise<string> };
    expect(await compileVectorKernels()).toBe(VECTOR_KERNELS_WASM);
  });
});
