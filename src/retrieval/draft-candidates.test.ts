import { describe, expect, it, vi } from 'vitest';

import { searchWorld, WORLD_VECTOR } from '../../test/fixtures/search-store.js';
import { cosine } from '../../test/fixtures/vectors.js';
import { draftCandidates, type DraftSources } from './draft-candidates.js';
import { wordQueryOf, wordSignalsFor } from './word-signals.js';

const NOW = new Date('2025-02-01T00:00:00.000Z');
const FACTORS = { recencyWeight: 0.1, recencyHalfLifeDays: 30, exactBoost: 0.15 };

function sources(fields: Partial<DraftSources> = {}): DraftSources & { store: ReturnType<typeof searchWorld> } {
  const store = searchWorld();
  return {
    store,
    tenant: 'acme',
    queryVector: WORLD_VECTOR,
    vector: [{ id: 'chose', similarity: 0.9 }],
    bm25: new Map([['chose', 5]]),
    readable: 1,
    wordsOf: wordSignalsFor(wordQueryOf('billing database', { now: NOW, scopes: undefined, settings: FACTORS })),
    readsMissingCosines: true,
    raw: (signals) => signals.coverage,
    ...fields,
  } as DraftSources & { store: ReturnType<typeof searchWorld> };
}

describe('drafting candidates', () => {
  it('measures each memory: BM25, words, the cosine and the factors, with the mode raw score', async () => {
    const [chose, cat] = await draftCandidates(sources())(['chose', 'cat']);
    expect(chose).toMatchObject({
      signals: { bm25: 5, coverage: 1, cosine: 0.9, keyword: expect.any(Number), graph: null, fused: null },
      factors: { recency: expect.any(Number), scope: 1, exact: 1.15, cooldown: 1 }, // it holds the phrase
      raw: 1,
      graph: null,
    });
    expect(cat?.signals).toMatchObject({ bm25: null, coverage: 0 });
  });

  it('reads the cosines the vector index did not return, once, only where the mode asks for them', async () => {
    const asked = sources();
    const similarities = vi.spyOn(asked.store, 'vectorSimilarities');
    const draft = draftCandidates(asked);
    const [, cat] = await draft(['chose', 'cat']);
    await draft(['cat', 'backup']);
    expect(similarities.mock.calls.map(([, ids]) => ids)).toEqual([['cat'], ['backup']]);
    expect(cat?.signals.cosine).toBeCloseTo(cosine(WORLD_VECTOR, Float32Array.of(0, 0, 0.2, 1)), 6);

    const single = sources({ readsMissingCosines: false });
    const [, alone] = await draftCandidates(single)(['chose', 'cat']);
    expect(alone?.signals.cosine).toBeNull();
    expect(single.store.calls).not.toContain('vectorSimilarities');
  });

  it('counts the cosine as far as the embedder reads the query, and applies the cooldown', async () => {
    const [chose] = await draftCandidates(sources({ readable: 0.5, cooldown: (memory) => (memory.id === 'chose' ? 0.25 : 1) }))([
      'chose',
    ]);
    expect(chose?.signals.cosine).toBe(0.45);
    expect(chose?.factors.cooldown).toBe(0.25);
  });

  it('leaves out a memory that is gone', async () => {
    expect((await draftCandidates(sources())(['gone', 'cat'])).map((d) => d.memory.id)).toEqual(['cat']);
  });
});
