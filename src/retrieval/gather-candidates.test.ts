import { describe, expect, it, vi } from 'vitest';

import { searchSettings } from '../../test/fixtures/search-settings.js';
import { deferredEmbedder, searchWorld, WORLD_QUERY, WORLD_VECTOR } from '../../test/fixtures/search-store.js';
import type { Memory } from '../model/memory.js';
import type { SearchMode } from '../model/search-request.js';
import { readView } from '../store/kept/kept-reads.js';
import { gatherCandidates, type GatherRequest } from './gather-candidates.js';
import { type PreparedQuery, prepareQuery } from './prepare-query.js';

const NOW = new Date('2025-02-01T00:00:00.000Z');
const FILTER = { tenant: 'acme' };

/** The world's query prepared for `mode`, its word measure recording which memories it was asked for. */
function prepared(mode: SearchMode, vector?: Float32Array) {
  const store = readView(searchWorld());
  const embedder = deferredEmbedder();
  const query = prepareQuery(store, {
    query: WORLD_QUERY,
    mode,
    settings: searchSettings(),
    embedder,
    tenant: 'acme',
    now: NOW,
    scopes: undefined,
    vector,
  });
  const measured: string[] = [];
  const counted: PreparedQuery = {
    ...query,
    wordsOf: (memory: Memory) => {
      measured.push(memory.id);
      return query.wordsOf(memory);
    },
  };
  const gather = (fields: Partial<GatherRequest> = {}) =>
    gatherCandidates({ store, query: counted, filter: FILTER, pool: 10, bounded: false, ...fields });
  return { store, embedder, measured, gather };
}

describe('gathering candidates', () => {
  it('measures the full-text hits and the memories about the named entity before the vector is in', async () => {
    const { store, embedder, measured, gather } = prepared('hybrid');
    const gathering = gather();

    // Two share the query's words; the third is about the entity the query names.
    await vi.waitFor(() => expect(new Set(measured)).toEqual(new Set(['chose', 'backup', 'group'])));
    expect(store.calls).not.toContain('searchVector');
    expect(store.calls).toContain('listMentionsInMemories'); // their mentions, for the graph stage

    embedder.answer(WORLD_VECTOR);
    const found = await gathering;
    expect(found.queryVector).toBe(WORLD_VECTOR);
    expect(found.lexical.map((hit) => hit.id)).toEqual(['chose', 'backup']);
    expect(found.vector.map((hit) => hit.id)).toEqual(['chose', 'backup', 'group', 'reply', 'cat']);
    expect(found.bm25).toEqual(new Map(found.lexical.map((hit) => [hit.id, hit.score])));
    expect(found.ranks.lexical).toEqual(
      new Map([
        ['chose', 1],
        ['backup', 2],
      ]),
    );
    expect(found.ranks.vector.get('group')).toBe(3);
    expect([...(found.graph?.named.keys() ?? [])]).toEqual(['e-caroline']);
  });

  it('gives the same candidates with the vector known from the start', async () => {
    const late = prepared('hybrid');
    const gathering = late.gather();
    late.embedder.answer(WORLD_VECTOR);
    expect(await gathering).toEqual(await prepared('hybrid', WORLD_VECTOR).gather());
  });

  it('leaves out the memories about the named entity in a bounded search, and tells the vector index', async () => {
    const { store, measured, gather } = prepared('hybrid', WORLD_VECTOR);
    const searchVector = vi.spyOn(store, 'searchVector');
    await gather({ bounded: true });
    expect(store.calls).not.toContain('listMentionsOfEntities');
    expect(measured).toEqual(['chose', 'backup']);
    expect(searchVector).toHaveBeenCalledWith(FILTER, WORLD_VECTOR, 10, { bounded: true });
  });

  it.each([
    ['dense', ['searchVector'], ['chose', 'backup', 'group', 'reply', 'cat']],
    ['bm25', ['searchLexical'], []],
    ['keyword', ['searchLexical'], []],
  ] as const)('asks only the index %s search reads (%o)', async (mode, calls, vectorHits) => {
    const { store, gather } = prepared(mode, WORLD_VECTOR);
    const found = await gather();
    expect(store.calls.filter((call) => call.startsWith('search'))).toEqual(calls);
    expect(found.vector.map((hit) => hit.id)).toEqual(vectorHits);
  });

  it('starts the work beside it with the full-text search, and fails when that work fails', async () => {
    const seen = vi.fn();
    const beside = () => Promise.reject(new Error('sample unreadable'));
    const failing = prepared('hybrid', WORLD_VECTOR).gather({ whileEmbedding: (fullText) => (seen(fullText), beside()) });
    expect(seen).toHaveBeenCalledWith(expect.any(Promise));
    await expect(failing).rejects.toThrow('sample unreadable');
  });

  it('fails without waiting for the vector when the full-text search fails', async () => {
    const { store, gather } = prepared('hybrid');
    vi.spyOn(store, 'searchLexical').mockRejectedValue(new Error('index unreadable'));
    await expect(gather()).rejects.toThrow('index unreadable');
  });
});
