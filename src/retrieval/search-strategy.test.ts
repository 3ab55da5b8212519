import { describe, expect, it } from 'vitest';

import { makeMemory } from '../../test/fixtures/memory.js';
import type { SearchMode } from '../model/search-request.js';
import { calibrate, hybridRawScore, saturatedBm25 } from './calibration.js';
import type { Draft } from './draft-candidates.js';
import { fusedRelevance } from './fused-relevance.js';
import type { GraphStageParts } from './graph-stage.js';
import type { SearchSignals } from './search-hit.js';
import { type IndexRanks, rrfOf, strategyFor } from './search-strategy.js';

const LEXICAL_WEIGHT = 0.6;
const settings = (fusion: 'weighted' | 'rrf', graph: boolean) => ({ fusion, graph, lexicalWeight: LEXICAL_WEIGHT });
const signals: SearchSignals = { bm25: 4, coverage: 0.5, cosine: 0.8, keyword: 0.25, graph: null, fused: null };

function draftOf(fields: Partial<Draft> = {}): Draft {
  return {
    memory: makeMemory({ id: 'm' }),
    signals: { ...signals },
    factors: { recency: 1, scope: 1, exact: 1, cooldown: 1 },
    raw: 0.5,
    graph: null,
    ...fields,
  };
}

describe('search strategies', () => {
  // One row per mode: the sources it asks and the stages it runs.
  it.each([
    ['hybrid', 'weighted', true, { embeds: true, followsGraph: true, calibrates: true, readsMissingCosines: true }],
    ['hybrid', 'weighted', false, { embeds: true, followsGraph: false, calibrates: true, readsMissingCosines: true }],
    ['hybrid', 'rrf', true, { embeds: true, followsGraph: false, calibrates: true, readsMissingCosines: true }],
    ['bm25', 'weighted', true, { embeds: false, followsGraph: false, calibrates: false, readsMissingCosines: false }],
    ['dense', 'weighted', true, { embeds: true, followsGraph: false, calibrates: false, readsMissingCosines: false }],
    ['keyword', 'weighted', true, { embeds: false, followsGraph: false, calibrates: false, readsMissingCosines: false }],
  ] as const)('%s search (%s fusion, graph %s) runs its own stages', (mode, fusion, graph, stages) => {
    expect(strategyFor(mode, settings(fusion, graph))).toMatchObject({ mode, ...stages });
  });

  it.each([
    ['hybrid', true, { skipIfOnlyCommon: true }],
    ['hybrid', false, { skipIfOnlyCommon: false }],
    ['bm25', false, { skipIfOnlyCommon: false }],
    ['keyword', false, { skipIfOnlyCommon: false }],
    ['dense', true, null],
  ] as const)('%s search with a vector %s asks the full-text index with %o', (mode, hasVector, options) => {
    expect(strategyFor(mode, settings('weighted', true)).lexicalOptions(hasVector)).toEqual(options);
  });

  it.each([
    ['hybrid', true, hybridRawScore(signals, true, LEXICAL_WEIGHT)],
    ['hybrid', false, hybridRawScore(signals, false, LEXICAL_WEIGHT)],
    ['bm25', true, saturatedBm25(4)],
    ['dense', true, 0.8],
    ['keyword', true, 0.25],
  ] as const)('%s search (vectors %s) scores the raw signal %d', (mode, hasVectors, raw) => {
    expect(strategyFor(mode, settings('weighted', true)).raw(signals, hasVectors)).toBe(raw);
  });

  it('scores no negative cosine in dense search', () => {
    expect(strategyFor('dense', settings('weighted', true)).raw({ ...signals, cosine: -0.3 }, true)).toBe(0);
  });

  it("shows the graph's part in hybrid search's raw score, and the signal alone elsewhere", () => {
    const d = draftOf({
      raw: 0.4,
      graph: { boost: 0.08, via: 'Caroline', about: true, dated: false, onDay: false, placed: false },
    });
    expect(strategyFor('hybrid', settings('weighted', true)).shownRaw(d)).toBe(0.4 + 0.08);
    expect(strategyFor('hybrid', settings('rrf', false)).shownRaw(d)).toBe(0.4 + 0.08);
    for (const mode of ['bm25', 'dense', 'keyword'] as const)
      expect(strategyFor(mode, settings('weighted', true)).shownRaw(d)).toBe(0.4);
  });

  describe('relevance before the store shift', () => {
    const ranks: IndexRanks = { lexical: new Map([['m', 1]]), vector: new Map([['m', 3]]) };
    const fused = { score: 18, best: 20, level: 0.9 };

    it.each([
      ['weighted hybrid', 'hybrid', 'weighted', draftOf(), calibrate(0.45)],
      [
        'weighted hybrid the graph ranks',
        'hybrid',
        'weighted',
        draftOf({ signals: { ...signals, fused } }),
        fusedRelevance(18, fused),
      ],
      ['reciprocal-rank fusion', 'hybrid', 'rrf', draftOf(), rrfOf(ranks, 'm')],
      ['bm25', 'bm25', 'weighted', draftOf(), 0.45],
      ['dense', 'dense', 'weighted', draftOf(), 0.45],
      ['keyword', 'keyword', 'weighted', draftOf(), 0.45],
    ] as const)('%s', (_, mode: SearchMode, fusion, d, relevance) => {
      expect(strategyFor(mode, settings(fusion, true)).relevance(d, 0.45, ranks)).toBe(relevance);
    });
  });

  it.each([
    [1, 1, 1],
    [1, undefined, 0.5],
    [undefined, undefined, 0],
    [2, 3, ((1 / 62 + 1 / 63) * 61) / 2],
  ])('fuses ranks %s (full text) and %s (vector) to %d', (lexical, vector, rrf) => {
    const at = (rank: number | undefined) => new Map(rank === undefined ? [] : [['m', rank]]);
    expect(rrfOf({ lexical: at(lexical), vector: at(vector) }, 'm')).toBeCloseTo(rrf, 15);
  });

  it('leaves the drafts as they are, reading nothing, in a mode that does not follow the graph', async () => {
    const drafts = [draftOf()];
    const nothing = new Proxy({} as GraphStageParts, {
      get: () => {
        throw new Error('read the graph');
      },
    });
    for (const [mode, fusion, graph] of [
      ['hybrid', 'weighted', false],
      ['hybrid', 'rrf', true],
      ['bm25', 'weighted', true],
      ['dense', 'weighted', true],
      ['keyword', 'weighted', true],
    ] as const) {
      expect(await strategyFor(mode, settings(fusion, graph)).expand(drafts, nothing)).toBe(drafts);
    }
  });
});
