import { describe, expect, it } from 'vitest';

import { seededRandom } from '../../../test/fixtures/random.js';
import { asymmetricScores, queryTables } from './asymmetric-score.js';
import { binaryCode } from './quantized-index.js';

/** The score by its definition: the sum of the query's components where the code's bit is set. */
function naiveScore(query: Float32Array, code: Uint32Array): number {
  let sum = 0;
  for (let i = 0; i < query.length; i++) if (((code[i >> 5] as number) >>> (i & 31)) & 1) sum += query[i] as number;
  return sum;
}

describe('asymmetric scores', () => {
  it('sum the query components where each code has a bit set', () => {
    const random = seededRandom(11);
    const query = Float32Array.from({ length: 512 }, () => random() * 2 - 1);
    const codes = Array.from({ length: 5 }, () => binaryCode(Float32Array.from({ length: 512 }, () => random() * 2 - 1)));
    const flat = new Uint32Array(codes.length * 16);
    codes.forEach((code, i) => flat.set(code, i * 16));

    const scores = asymmetricScores(queryTables(query, 16), flat, 16, [3, 0, 4]);

    expect(Array.from(scores)).toHaveLength(3);
    [3, 0, 4].forEach((position, i) => expect(scores[i]).toBeCloseTo(naiveScore(query, codes[position] as Uint32Array), 3));
  });

  it('reads the components past the vector as zero when the last word is partly used', () => {
    const query = Float32Array.from({ length: 40 }, (_, i) => i + 1);
    const tables = queryTables(query, 2);
    const allSet = new Uint32Array([0xffffffff, 0xffffffff]);

    expect(asymmetricScores(tables, allSet, 2, [0])[0]).toBe((40 * 41) / 2);
  });

  it('ranks a code with the query signs above one with the opposite signs', () => {
    const query = Float32Array.from({ length: 64 }, (_, i) => (i % 3 === 0 ? -0.5 : 0.25));
    const same = binaryCode(query);
    const opposite = binaryCode(query.map((value) => -value));
    const flat = new Uint32Array([...same, ...opposite]);

    const [near, far] = asymmetricScores(queryTables(query, 2), flat, 2, [0, 1]);

    expect(near as number).toBeGreaterThan(far as number);
  });
});
