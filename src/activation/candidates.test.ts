import { describe, expect, it, vi } from 'vitest';

import { searchSettings } from '../../test/fixtures/search-settings.js';
import { deferredEmbedder, searchWorld, WORLD_QUERY, WORLD_VECTOR } from '../../test/fixtures/search-store.js';
import { normalize } from '../embedding/embedder.js';
import type { CalibrationSample, CalibrationSamples } from '../retrieval/calibration-sample.js';
import { stemSet } from '../retrieval/coverage.js';
import type { Store } from '../store/store.js';
import { searchCandidates } from './candidates.js';

/** A sample of 200 members that resemble the query: a search on it is shifted. */
const SAMPLE: CalibrationSample = {
  members: Array.from({ length: 200 }, (_, i) => ({
    id: `s${i}`,
    updatedAt: '2025-01-15T09:00:00.000Z',
    vector: normalize(Float32Array.of(0.8, 0.4 + (i % 7) / 10, 0.1, 0.1)),
    words: stemSet(i % 2 === 0 ? 'the billing database' : 'Caroline decided'),
    withContext: null,
    mentions: [],
  })),
};

function candidatesOf(limit: number) {
  const store = searchWorld();
  const embedder = deferredEmbedder();
  const sampleFor = vi.fn(async () => SAMPLE);
  const retrieval = searchSettings({ samples: { sampleFor } as unknown as CalibrationSamples });
  const search = searchCandidates({
    store: store as unknown as Store,
    embedder,
    tenant: 'acme',
    scopes: undefined,
    query: WORLD_QUERY,
    queryVector: WORLD_VECTOR,
    limit,
    wanted: { must: 0, nice: 2, unknown: 0 },
    threshold: 0,
    now: new Date('2025-02-01T00:00:00.000Z'),
    retrieval,
  });
  return { store, embedder, sampleFor, search };
}

describe("recall's candidates", () => {
  it("searches a short tier on its own on the wide search's scale, with the query prepared once", async () => {
    const { store, embedder, sampleFor, search } = candidatesOf(2);
    const hits = await search;

    // The wide pool was full with fewer nice memories than wanted: nice was searched alone.
    expect(store.calls.filter((call) => call === 'searchLexical')).toHaveLength(2);
    expect(hits.map((hit) => hit.memory.id)).toContain('group');
    // One embedding (the caller's), one read of the graph, one calibration for every search.
    expect(embedder.asked).toEqual([]);
    expect(store.calls.filter((call) => call === 'findEntities')).toHaveLength(1);
    expect(sampleFor).toHaveBeenCalledTimes(1);
    const shift = hits[0]?.storeShift ?? 0;
    expect(shift).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.storeShift === shift)).toBe(true);
    expect(new Set(hits.map((hit) => hit.memory.id)).size).toBe(hits.length);
  });

  it('searches no tier alone when the pool holds every match', async () => {
    const { store, search } = candidatesOf(50);
    await search;
    expect(store.calls.filter((call) => call === 'searchLexical')).toHaveLength(1);
  });
});
