import { describe, expect, it } from 'vitest';

import { makeMemory } from '../../test/fixtures/memory.js';
import type { Draft } from './draft-candidates.js';
import { rankHits, type RankRequest } from './rank-hits.js';
import { strategyFor } from './search-strategy.js';
import { shiftRelevance } from './store-calibration.js';

const KEYWORD = strategyFor('keyword', { fusion: 'weighted', graph: false, lexicalWeight: 0.6 });
const NO_RANKS = { lexical: new Map(), vector: new Map() };

/** A keyword-mode draft: its raw score is its relevance. */
function draft(id: string, raw: number, factors: Partial<Draft['factors']> = {}): Draft {
  return {
    memory: makeMemory({ id }),
    signals: { bm25: null, coverage: 0, cosine: null, keyword: raw, graph: null, fused: null },
    factors: { recency: 1, scope: 1, exact: 1, cooldown: 1, ...factors },
    raw,
    graph: null,
  };
}

const ranked = (drafts: Draft[], request: Partial<RankRequest> = {}) =>
  rankHits(drafts, { strategy: KEYWORD, storeShift: 0, ranks: NO_RANKS, minRelevance: 0, limit: 10, ...request });

describe('ranking drafts into hits', () => {
  it('orders by relevance × recency × scope × exact, ties by id', () => {
    const hits = ranked([draft('b', 0.5), draft('a', 0.5), draft('c', 0.6, { recency: 0.5 }), draft('d', 0.4, { exact: 1.5 })]);
    expect(hits.map((hit) => [hit.memory.id, hit.score])).toEqual([
      ['d', 0.4 * 1.5],
      ['a', 0.5],
      ['b', 0.5],
      ['c', 0.6 * 0.5],
    ]);
  });

  it.each([
    ['the cooldown lowers relevance itself', draft('a', 0.8, { cooldown: 0.5 }), 0, 0.4, 0.4],
    [
      "the store's shift takes the same share off every hit",
      draft('a', 0.8),
      0.06,
      shiftRelevance(0.8, 0.06),
      shiftRelevance(0.8, 0.06),
    ],
    ['the visible factors move the score, not relevance', draft('a', 0.8, { scope: 0.9 }), 0, 0.8, 0.8 * 0.9],
  ])('%s', (_, d, storeShift, relevance, score) => {
    const [hit] = ranked([d], { storeShift });
    expect(hit).toMatchObject({ relevance, score, raw: 0.8, storeShift });
  });

  it.each([
    ['below minRelevance', draft('a', 0.29), { minRelevance: 0.3 }, []],
    ['at minRelevance', draft('a', 0.3), { minRelevance: 0.3 }, ['a']],
    ['scoring 0', draft('a', 0), {}, []],
    ['cooled down to 0', draft('a', 0.9, { cooldown: 0 }), {}, []],
  ])('leaves out a hit %s', (_, d, request, ids) => {
    expect(ranked([d], request).map((hit) => hit.memory.id)).toEqual(ids);
  });

  it('keeps the best `limit` and says how the graph reached a hit', () => {
    const via = draft('v', 0.9);
    via.graph = { boost: 0, via: 'Caroline', about: true, dated: false, onDay: false, placed: false };
    const hits = ranked([draft('a', 0.2), via, draft('b', 0.5)], { limit: 2 });
    expect(hits.map((hit) => [hit.memory.id, hit.via])).toEqual([
      ['v', 'Caroline'],
      ['b', null],
    ]);
  });
});
