import { describe, expect, it } from 'vitest';

import { type MemoryCounts, subtractCounts } from './store-statistics.js';

const counts = (fields: Partial<MemoryCounts>): MemoryCounts => ({
  memories: 0,
  live: 0,
  archived: 0,
  superseded: 0,
  byKind: {},
  byTier: {},
  byScope: {},
  ...fields,
});

describe('subtractCounts', () => {
  it('takes a part away from every count, drops the groups it empties and lists the rest largest first', () => {
    const all = counts({
      memories: 12,
      live: 9,
      archived: 1,
      superseded: 2,
      byKind: { fact: 4, working_set: 3, decision: 2 },
      byTier: { must: 5, nice: 4 },
      byScope: { global: 6, 'user:alice': 3 },
    });
    const part = counts({
      memories: 5,
      live: 3,
      superseded: 2,
      byKind: { working_set: 3 },
      byTier: { must: 3 },
      byScope: { global: 1, 'user:alice': 2 },
    });
    const left = subtractCounts(all, part);
    expect(left).toEqual({
      memories: 7,
      live: 6,
      archived: 1,
      superseded: 0,
      byKind: { fact: 4, decision: 2 },
      byTier: { nice: 4, must: 2 },
      byScope: { global: 5, 'user:alice': 1 },
    });
    expect(Object.keys(left.byTier)).toEqual(['nice', 'must']);
  });

  it('leaves the counts as they are when the part is empty', () => {
    const all = counts({ memories: 2, live: 2, byKind: { fact: 1, note: 1 }, byTier: { unknown: 2 }, byScope: { global: 2 } });
    expect(subtractCounts(all, counts({}))).toEqual(all);
  });
});
