import { describe, expect, it } from 'vitest';

import { cosineSimilarity, squaredLength } from './float-vectors.js';
import {
  floatToHalfBits,
  halfBitsToFloat,
  halfBlobSimilarity,
  halfBlobToVector,
  roundToHalf,
  vectorToHalfBlob,
} from './half-float.js';

describe('half-precision vectors', () => {
  it.each([
    [0, 0x0000],
    [-0, 0x8000],
    [1, 0x3c00],
    [-2, 0xc000],
    [0.5, 0x3800],
    [65504, 0x7bff],
    [65520, 0x7c00], // rounds past the largest half: Infinity
    [2 ** -24, 0x0001], // the smallest subnormal
    [2 ** -14, 0x0400], // the smallest normal
    [1 + 2 ** -11, 0x3c00], // a tie rounds to even (down)
    [1 + 3 * 2 ** -11, 0x3c02], // a tie rounds to even (up)
    [Infinity, 0x7c00],
  ])('rounds %d to the half 0x%s', (value, half) => {
    expect(floatToHalfBits(value)).toBe(half);
  });

  it('gives back every half value exactly through its bits', () => {
    for (let half = 0; half < 0x7c00; half += 7) {
      expect(floatToHalfBits(halfBitsToFloat(half))).toBe(half);
      expect(floatToHalfBits(halfBitsToFloat(half | 0x8000))).toBe(half | 0x8000);
    }
  });

  it('keeps a unit vector within a half step of each component, and a blob gives back the rounded vector', () => {
    const vector = Float32Array.from({ length: 512 }, (_, i) => Math.sin(i * 1.7) / 16);
    const rounded = roundToHalf(vector);
    for (let i = 0; i < vector.length; i++) {
      expect(Math.abs((rounded[i] as number) - (vector[i] as number))).toBeLessThanOrEqual(
        Math.abs(vector[i] as number) * 2 ** -11 + 2 ** -25,
      );
    }
    const blob = vectorToHalfBlob(vector);
    expect(blob.byteLength).toBe(1024);
    expect(halfBlobToVector(blob)).toEqual(rounded);
    // A blob that starts at an odd offset of its buffer reads the same.
    const odd = Buffer.alloc(blob.byteLength + 1);
    blob.copy(odd, 1);
    expect(halfBlobToVector(odd.subarray(1))).toEqual(rounded);
    expect(roundToHalf(rounded)).toEqual(rounded);
  });

  it('scores a blob with the bits of the decoded vector’s score, wherever the blob lies', () => {
    const query = Float32Array.from({ length: 512 }, (_, i) => Math.cos(i * 0.37));
    const queryLength = squaredLength(query);
    for (let v = 0; v < 20; v++) {
      const blob = vectorToHalfBlob(roundToHalf(Float32Array.from({ length: 512 }, (_, i) => Math.sin(i * (0.1 + v)))));
      const odd = Buffer.alloc(blob.byteLength + 1);
      blob.copy(odd, 1);
      const expected = cosineSimilarity(halfBlobToVector(blob), query, queryLength);
      expect(halfBlobSimilarity(blob, query, queryLength)).toBe(expected);
      expect(halfBlobSimilarity(odd.subarray(1), query, queryLength)).toBe(expected);
    }
    expect(halfBlobSimilarity(vectorToHalfBlob(new Float32Array(512)), query, queryLength)).toBeNull();
  });
});
