import { describe, expect, it } from 'vitest';

import { KeptByMemory } from './kept-by-memory.js';

describe('what one connection keeps per memory', () => {
  const fixed = () => 1;

  it('keeps entries apart per tenant, and lets dropped ones go', () => {
    const kept = new KeptByMemory<number>(fixed, 10);
    kept.keep([
      ['acme', 'm1', 1],
      ['globex', 'm1', 2],
    ]);
    expect([kept.get('acme', 'm1'), kept.get('globex', 'm1'), kept.get('acme', 'm2')]).toEqual([1, 2, undefined]);
    kept.drop('acme', ['m1']);
    expect([kept.get('acme', 'm1'), kept.get('globex', 'm1')]).toEqual([undefined, 2]);
  });

  it('lets the older half go at the bound, oldest first, over every tenant', () => {
    const kept = new KeptByMemory<number>(fixed, 4);
    kept.keep([
      ['acme', 'a1', 1],
      ['acme', 'a2', 2],
      ['globex', 'g1', 3],
    ]);
    kept.keep([['acme', 'a1', 10]]); // kept already: counted once, its place unchanged
    kept.keep([['globex', 'g2', 4]]);
    expect([kept.get('acme', 'a1'), kept.get('acme', 'a2'), kept.get('globex', 'g1'), kept.get('globex', 'g2')]).toEqual([
      10, 2, 3, 4,
    ]);

    kept.keep([['globex', 'g3', 5]]);
    expect([kept.get('acme', 'a1'), kept.get('acme', 'a2'), kept.get('globex', 'g1')]).toEqual([undefined, undefined, 3]);
    expect([kept.get('globex', 'g2'), kept.get('globex', 'g3')]).toEqual([4, 5]);
  });

  it('counts what it lets go, so the bound holds after drops and clears', () => {
    const kept = new KeptByMemory<number>(fixed, 2);
    kept.keep([['acme', 'a1', 1]]);
    kept.drop('acme', ['a1', 'missing']);
    kept.keep([
      ['acme', 'a2', 2],
      ['acme', 'a3', 3],
    ]);
    expect([kept.get('acme', 'a2'), kept.get('acme', 'a3')]).toEqual([2, 3]);
    kept.keep([['acme', 'a4', 4]]); // one over the bound: one goes
    expect([kept.get('acme', 'a2'), kept.get('acme', 'a3'), kept.get('acme', 'a4')]).toEqual([undefined, 3, 4]);
    kept.clear();
    kept.keep([
      ['acme', 'a4', 4],
      ['acme', 'a5', 5],
    ]);
    expect([kept.get('acme', 'a4'), kept.get('acme', 'a5')]).toEqual([4, 5]);
  });

  it('lets everything go when its version moves, and keeps it while the version holds', () => {
    let version = 1;
    const kept = new KeptByMemory<number>(() => version, 10);
    kept.refresh();
    kept.keep([['acme', 'a1', 1]]);
    kept.refresh();
    expect(kept.get('acme', 'a1')).toBe(1);
    version = 2;
    kept.refresh();
    expect(kept.get('acme', 'a1')).toBeUndefined();
  });
});
