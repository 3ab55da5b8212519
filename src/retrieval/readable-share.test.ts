import { describe, expect, it } from 'vitest';

import type { Embedder } from '../embedding/embedder.js';
import { countedCosine, queryReadableShare } from './readable-share.js';

const embedderReading = (share: number | undefined): Embedder => ({
  id: 'test:share',
  dimensions: 4,
  embed: async (texts) => texts.map(() => new Float32Array(4)),
  ...(share === undefined ? {} : { readableShare: () => share }),
});

describe('how far a query’s cosine counts', () => {
  it.each([
    ['an embedder that reads all of it', 1, 1],
    ['one that reads none of it', 0, 0],
    ['one that reads part of it', 0.4, 0.4],
    ['one that does not say', undefined, 1],
    ['one that says too much', 1.5, 1],
    ['one that says less than nothing', -0.2, 0],
    ['one that says NaN', Number.NaN, 1],
  ] as const)('takes the share from %s', (_label, share, expected) => {
    expect(queryReadableShare(embedderReading(share), 'query')).toBe(expected);
  });

  it('counts all of it without an embedder', () => {
    expect(queryReadableShare(null, '🍕')).toBe(1);
  });

  it('scales the cosine by the share, and keeps a missing one missing', () => {
    expect(countedCosine(0.8, 0.5)).toBeCloseTo(0.4, 12);
    expect(countedCosine(1, 0)).toBe(0);
    expect(countedCosine(0.73, 1)).toBe(0.73);
    expect(countedCosine(null, 0.5)).toBeNull();
  });
});
