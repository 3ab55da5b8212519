import { describe, expect, it } from 'vitest';

import { SampleVectors } from './sample-dots.js';
import { SAMPLE_DOTS_WASM } from './sample-dots-wasm.js';

/** The sum the kernel must match: four running sums in doubles (terms i, i+4, …; i+1, i+5, …), the rest into the first. */
function fourSums(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  const sums = new Float64Array(4);
  let i = 0;
  for (; i + 3 < n; i += 4)
    for (let lane = 0; lane < 4; lane++) sums[lane] = (sums[lane] as number) + (a[i + lane] as number) * (b[i + lane] as number);
  for (; i < n; i++) sums[0] = (sums[0] as number) + (a[i] as number) * (b[i] as number);
  return (sums[0] as number) + (sums[1] as number) + (sums[2] as number) + (sums[3] as number);
}

/** Values from a small linear congruential generator, the same on every run, some far apart in size. */
function values(count: number, seed: number): Float32Array {
  let state = seed;
  return Float32Array.from({ length: count }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return ((state / 2_147_483_648) * 2 - 1) * (state % 7 === 0 ? 1e6 : 1);
  });
}

describe('the sample dot products', () => {
  it.each([
    [512, 512],
    [7, 7],
    [16, 20],
    [16, 9],
    [3, 3],
    [0, 4],
  ])('equal the four-sum dot product to the last bit (%d dimensions, a query of %d)', (dimensions, queryLength) => {
    const count = 37;
    const sample = new SampleVectors(dimensions, count);
    sample.vectors.set(values(count * dimensions, dimensions + 1));
    const query = values(queryLength, 99);
    const dots = sample.dots(query);
    for (let v = 0; v < count; v++) {
      expect(dots[v]).toBe(fourSums(query, sample.vectors.subarray(v * dimensions, (v + 1) * dimensions)));
    }
  });

  it('score each query afresh', () => {
    const sample = new SampleVectors(8, 2);
    sample.vectors.set([1, 2, 3, 4, 5, 6, 7, 8, 1, 0, 0, 0, 0, 0, 0, 1]);
    expect([...sample.dots(Float32Array.from([1, 1, 1, 1, 1, 1, 1, 1]))]).toEqual([36, 2]);
    expect([...sample.dots(Float32Array.from([0, 0, 0, 0, 0, 0, 0, 2]))]).toEqual([16, 2]);
  });

  it('are the compiled form of sample-dots.wat (run `npm run build:kernels` after editing it)', async () => {
    const script = '../../scripts/compile-vector-kernels.mjs';
    const { compileSampleDots } = (await import(script)) as { compileSampleDots: () => Promise<string> };
    expect(await compileSampleDots()).toBe(SAMPLE_DOTS_WASM);
  });
});
