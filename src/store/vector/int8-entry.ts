/**
 * A vector's entry in the quantized index as it is kept on disk: its signed bytes
 * (int8-vector.ts) followed by the factor that turns their dot product with a query's bytes
 * into an estimate of the cosine (the bytes' scale over the vector's length), as a little-endian
 * float32. An index opened from the stored entries holds exactly what one built from the
 * vectors would (quantized-index.ts computes its entries here too), so it ranks the same.
 * Why they are kept: docs/decisions/time-to-first-answer.md.
 */
import { writeInt8 } from './int8-vector.js';

/** Bytes of the factor after the signed bytes. */
export const FACTOR_BYTES = 4;

/**
 * Writes the signed bytes of `vector` at `offset` of `into` and returns the entry's factor,
 * rounded to float32 as the index keeps it; 0 for a vector of zeros.
 */
export function writeInt8Entry(vector: Float32Array, into: Int8Array, offset: number): number {
  // Scaled by the vector's length too, so the estimates rank by cosine as the exact scores do.
  let squares = 0;
  for (let i = 0; i < vector.length; i++) squares += (vector[i] as number) * (vector[i] as number);
  const scale = writeInt8(vector, into, offset);
  return Math.fround(squares > 0 ? scale / Math.sqrt(squares) : 0);
}

/** The stored entry of `vector`: its signed bytes, then the factor. */
export function int8EntryBlob(vector: Float32Array): Buffer {
  const blob = Buffer.alloc(vector.length + FACTOR_BYTES);
  const bytes = new Int8Array(blob.buffer, blob.byteOffset, vector.length);
  blob.writeFloatLE(writeInt8Entry(vector, bytes, 0), vector.length);
  return blob;
}

/** Whether `blob` is the stored entry of a vector of `dimensions`, by its length. */
export function isInt8Entry(blob: Uint8Array, dimensions: number): boolean {
  return blob.byteLength === dimensions + FACTOR_BYTES;
}

/** The factor stored at `offset` of `bytes` (a little-endian float32), read without a view of its own. */
export function readFactor(bytes: Uint8Array, offset: number): number {
  for (let i = 0; i < FACTOR_BYTES; i++) factorBytes[LITTLE_ENDIAN ? i : FACTOR_BYTES - 1 - i] = bytes[offset + i] as number;
  return factor[0] as number;
}

const factor = new Float32Array(1);
const factorBytes = new Uint8Array(factor.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
