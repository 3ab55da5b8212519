/**
 * Vectors as signed bytes: each component scaled by 127 over the vector's largest magnitude and
 * rounded, with that scale kept to undo it. A dot product of two such vectors is the float one
 * to within about 1% of its spread, a quarter of float32's memory, and exact enough to order a
 * few hundred candidates before the float vectors are read (quantized-index.ts).
 */

/**
 * Rounding through float32: adding 1.5·2^23 to a number of magnitude under 2^22 leaves it rounded
 * to an integer in the low bits of the float's mantissa, whose lowest byte is then the signed
 * byte. Converting each number to an integer directly costs about twice as much in V8.
 */
const ROUNDING = 12_582_912;
let scratch = new Float32Array(512);
let scratchBits = new Int32Array(scratch.buffer);

/** The signed bytes of `vector`, written at `offset` of `into`; returns the factor that undoes the scaling. */
export function writeInt8(vector: Float32Array, into: Int8Array, offset: number): number {
  let largest = 0;
  for (let i = 0; i < vector.length; i++) {
    const magnitude = Math.abs(vector[i] as number);
    if (magnitude > largest) largest = magnitude;
  }
  if (largest === 0) {
    into.fill(0, offset, offset + vector.length); // whatever was there before is no part of this vector
    return 0;
  }
  if (scratch.length < vector.length) {
    scratch = new Float32Array(vector.length);
    scratchBits = new Int32Array(scratch.buffer);
  }
  const factor = 127 / largest;
  for (let i = 0; i < vector.length; i++) scratch[i] = (vector[i] as number) * factor + ROUNDING;
  for (let i = 0; i < vector.length; i++) into[offset + i] = scratchBits[i] as number;
  return largest / 127;
}
