import { describe, expect, it, vi } from 'vitest';

import { deferredEmbedder, searchWorld, WORLD_QUERY, WORLD_VECTOR } from '../../test/fixtures/search-store.js';
import type { SearchMode } from '../model/search-request.js';
import { type CalibrationSamples } from './calibration-sample.js';
import { prepareQuery, type QueryRequest, withStoreShift } from './prepare-query.js';
import type { RetrievalSettings } from './retrieval-settings.js';

const NOW = new Date('2025-02-01T00:00:00.000Z');

function request(mode: SearchMode, settings: Partial<RetrievalSettings> = {}, fields: Partial<QueryRequest> = {}) {
  const store = searchWorld();
  const embedder = deferredEmbedder();
  const samples = { sampleFor: vi.fn(() => new Promise<never>(() => undefined)) } as unknown as CalibrationSamples;
  const retrieval: RetrievalSettings = {
    fusion: 'weighted',
    lexicalWeight: 0.6,
    candidates: 10,
    graph: true,
    factors: { recencyWeight: 0.1, recencyHalfLifeDays: 30, exactBoost: 0.15 },
    samples,
    ...settings,
  };
  const asked: QueryRequest = {
    query: WORLD_QUERY,
    mode,
    settings: retrieval,
    embedder,
    tenant: 'acme',
    now: NOW,
    scopes: undefined,
    ...fields,
  };
  return { store, embedder, samples, asked };
}

describe('preparing a query', () => {
  // Which reads each mode starts, before any is awaited.
  it.each([
    ['hybrid', 'weighted', true, { embeds: true, readsGraph: true, samples: true }],
    ['hybrid', 'weighted', false, { embeds: true, readsGraph: false, samples: true }],
    ['hybrid', 'rrf', true, { embeds: true, readsGraph: false, samples: true }],
    ['dense', 'weighted', true, { embeds: true, readsGraph: false, samples: false }],
    ['bm25', 'weighted', true, { embeds: false, readsGraph: false, samples: false }],
    ['keyword', 'weighted', true, { embeds: false, readsGraph: false, samples: false }],
  ] as const)('%s search (%s fusion, graph %s) starts %o', (mode, fusion, graph, starts) => {
    const { store, embedder, samples, asked } = request(mode, { fusion, graph });
    const query = prepareQuery(store, asked);
    expect(embedder.asked).toEqual(starts.embeds ? [WORLD_QUERY] : []);
    expect(query.vector).toEqual(starts.embeds ? expect.any(Promise) : null);
    expect(store.calls.includes('findEntities')).toBe(starts.readsGraph);
    expect(query.graph).toEqual(starts.readsGraph ? expect.any(Promise) : null);
    expect(vi.mocked(samples.sampleFor).mock.calls).toEqual(starts.samples ? [['acme']] : []);
    expect(query.calibration.kind).toBe('sample');
  });

  it('embeds nothing and reads no sample without an embedder', () => {
    const { store, samples, asked } = request('hybrid', {}, { embedder: null });
    const query = prepareQuery(store, asked);
    expect(query.vector).toBeNull();
    expect(query.calibration).toEqual({ kind: 'sample', sample: null });
    expect(samples.sampleFor).not.toHaveBeenCalled();
  });

  it("takes the caller's vector rather than embedding the query again", () => {
    const { store, embedder, asked } = request('hybrid', {}, { vector: WORLD_VECTOR });
    expect(prepareQuery(store, asked).vector).toBe(WORLD_VECTOR);
    expect(embedder.asked).toEqual([]);
  });

  it('reads what the graph says about the query once the store answers', async () => {
    const { store, asked } = request('hybrid');
    const graph = await prepareQuery(store, asked).graph;
    expect([...(graph?.named.keys() ?? [])]).toEqual(['e-caroline']);
  });

  it.each([
    ['What did Caroline decide on 10.01.2025?', { start: '2025-01-10', end: '2025-01-10' }, false],
    ['Where was Caroline on January 5th?', { start: '2025-01-05', end: '2025-01-05' }, true],
    // Without a year, the latest such day up to the query's own time: last year's.
    ['What did Caroline decide on the 5th of March?', { start: '2024-03-05', end: '2024-03-05' }, false],
    ['Which city did Caroline pick for the billing database?', null, true],
  ] as const)('reads the days %j pins and whether it asks for a place, at the query’s own time', async (text, named, place) => {
    const { store, asked } = request('hybrid', {}, { query: text });
    const graph = await prepareQuery(store, asked).graph;
    expect(graph?.days?.named ?? null).toEqual(named);
    expect(graph?.asksWhere).toBe(place);
  });

  it('widens the pinned days by a day either side for the memories that count as on them', async () => {
    const { store, asked } = request('hybrid', {}, { query: 'What did Caroline decide on 31 Dec 2024?' });
    expect((await prepareQuery(store, asked).graph)?.days?.within).toEqual({ start: '2024-12-30', end: '2025-01-01' });
  });

  it("measures each memory's words once for every search of the query", async () => {
    const { store, asked } = request('hybrid');
    const query = prepareQuery(store, asked);
    const [chose] = await store.getMemories('acme', ['chose']);
    const first = query.wordsOf(chose!);
    expect(query.wordsOf(chose!)).toBe(first);
    expect(first.coverage).toBeGreaterThan(0);
  });

  it('puts a query on a known store shift and keeps the rest of it', () => {
    const { store, asked } = request('hybrid');
    const query = prepareQuery(store, asked);
    const onShift = withStoreShift(query, 0.04);
    expect(onShift).toEqual({ ...query, calibration: { kind: 'fixed', shift: 0.04 } });
    expect(onShift.vector).toBe(query.vector);
    expect(onShift.wordsOf).toBe(query.wordsOf);
  });
});
