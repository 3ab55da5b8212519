import { describe, expect, it } from 'vitest';

import { FloatVectors, squaredLength } from './float-vectors.js';

const v = (...values: number[]) => Float32Array.from(values);

describe('float vectors held in memory', () => {
  it('holds, replaces and lets go of vectors by rowid, keeping each id with its vector', () => {
    const held = new FloatVectors(2, 1);
    held.set(10, 'a', v(1, 0));
    held.set(11, 'b', v(0, 1));
    held.set(12, 'c', v(1, 1)); // past the first capacity
    held.set(10, 'a', v(3, 4)); // replaced in place
    expect(held.size).toBe(3);
    expect(held.byteLength).toBe(3 * 2 * 4);
    held.delete(10); // the last one takes its place
    held.delete(99); // never held: nothing happens
    expect(held.size).toBe(2);
    expect(held.has(10)).toBe(false);
    expect(held.vector(10)).toBeUndefined();
    expect(held.idOf(12)).toBe('c');
    expect(held.vector(12)).toEqual(v(1, 1));
    expect(held.score(11, v(0, 2), squaredLength(v(0, 2)))).toEqual({ id: 'b', similarity: 1 });
    expect(held.score(12, v(1, 0), 1)?.similarity).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('gives out copies, so a caller cannot change what it holds', () => {
    const held = new FloatVectors(2);
    held.set(1, 'a', v(1, 2));
    (held.vector(1) as Float32Array)[0] = 9;
    expect(held.vector(1)).toEqual(v(1, 2));
  });

  it('scores a vector of zeros as null, as SQLite turns its NaN into NULL', () => {
    const held = new FloatVectors(2);
    held.set(1, 'zero', v(0, 0));
    expect(held.score(1, v(1, 0), 1)).toEqual({ id: 'zero', similarity: null });
  });

  it('refuses a vector of another length', () => {
    expect(() => new FloatVectors(3).set(1, 'a', v(1, 2))).toThrow(/2 dimensions among vectors of 3/);
  });

  it('scores many vectors at once with the same bits as one by one, in the order asked, leaving out those not held', () => {
    const dimensions = 37;
    const held = new FloatVectors(dimensions);
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    for (let rowid = 1; rowid <= 11; rowid++) held.set(rowid, `m${rowid}`, Float32Array.from({ length: dimensions }, random));
    held.set(12, 'zero', new Float32Array(dimensions));
    const query = Float32Array.from({ length: dimensions }, random);
    const length = squaredLength(query);
    const asked = [12, 3, 99, 1, 5, 11, 2, 7, 8, 4, 10, 6, 9];

    const scored = held.scores(asked, query, length);

    expect(scored.map((hit) => hit.rowid)).toEqual(asked.filter((rowid) => rowid !== 99));
    for (const hit of scored) expect({ id: hit.id, similarity: hit.similarity }).toEqual(held.score(hit.rowid, query, length));
    expect(scored[0]).toEqual({ rowid: 12, id: 'zero', similarity: null });
  });

  it("finds a held vector's rowid by its memory's id, through replacements and deletes", () => {
    const held = new FloatVectors(2);
    held.set(1, 'a', v(1, 0));
    held.set(2, 'b', v(0, 1));
    expect(held.rowidOf('a')).toBe(1);
    held.set(1, 'c', v(1, 0)); // the rowid's memory id changed
    expect(held.rowidOf('a')).toBeUndefined();
    expect(held.rowidOf('c')).toBe(1);
    held.set(3, 'b', v(1, 1)); // the id now on another rowid
    held.delete(2); // the old rowid going does not take the id with it
    expect(held.rowidOf('b')).toBe(3);
    held.delete(3);
    expect(held.rowidOf('b')).toBeUndefined();
    expect(held.rowidOf('c')).toBe(1);
  });
});
