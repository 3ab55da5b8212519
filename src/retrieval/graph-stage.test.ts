import { describe, expect, it } from 'vitest';

import { searchSettings } from '../../test/fixtures/search-settings.js';
import { searchWorld, WORLD_QUERY, WORLD_VECTOR } from '../../test/fixtures/search-store.js';
import { draftCandidates } from './draft-candidates.js';
import { gatherCandidates } from './gather-candidates.js';
import { graphStage } from './graph-stage.js';
import { prepareQuery } from './prepare-query.js';

const NOW = new Date('2025-02-01T00:00:00.000Z');
const FILTER = { tenant: 'acme' };

/** The world's hybrid search up to its drafts, from both indexes or (without a vector) the full text alone. */
async function drafted(vector: Float32Array | null, bounded = false) {
  const store = searchWorld();
  const query = prepareQuery(store, {
    query: WORLD_QUERY,
    mode: 'hybrid',
    settings: searchSettings(),
    embedder: vector === null ? null : { id: 'fixed', dimensions: 4, embed: async () => [vector] },
    tenant: 'acme',
    now: NOW,
    scopes: undefined,
  });
  const found = await gatherCandidates({ store, query, filter: FILTER, pool: 2, bounded });
  const draft = draftCandidates({
    store,
    tenant: 'acme',
    queryVector: found.queryVector,
    vector: found.vector,
    bm25: found.bm25,
    readable: 1,
    wordsOf: query.wordsOf,
    readsMissingCosines: true,
    raw: (signals) => query.strategy.raw(signals, vector !== null),
  });
  const drafts = await draft([...new Set([...found.lexical, ...found.vector].map((hit) => hit.id))]);
  const parts = {
    store,
    filter: FILTER,
    graph: found.graph,
    draft,
    bounded,
    hasVector: vector !== null,
    lexicalRanks: found.ranks.lexical,
  };
  return { drafts, parts };
}

describe('the graph stage', () => {
  it('adds the memories about the named entity, gives every candidate its graph part and ranks by the fused order', async () => {
    const { drafts, parts } = await drafted(WORLD_VECTOR);
    expect(drafts.map((d) => d.memory.id)).toEqual(['chose', 'backup']);
    const followed = await graphStage(drafts, parts);
    const byId = new Map(followed.map((d) => [d.memory.id, d]));
    // Said by Caroline, found by no index; the turn beside it in her session, lifted towards it.
    expect(byId.get('group')?.graph).toMatchObject({ about: true, via: 'Caroline' });
    expect(byId.get('reply')?.graph?.via).toMatch(/^beside /);
    expect(byId.get('backup')?.signals.graph).toBe(0);
    expect(followed.every((d) => d.signals.fused !== null)).toBe(true);
  });

  it('ranks by the fixed sum without vectors: no fused order', async () => {
    const { drafts, parts } = await drafted(null);
    const followed = await graphStage(drafts, parts);
    expect(followed.map((d) => d.memory.id)).toContain('group');
    expect(followed.every((d) => d.signals.fused === null && d.signals.graph !== null)).toBe(true);
  });

  it('adds no memories about the entity in a bounded search, and still gives the candidates their parts', async () => {
    const { drafts, parts } = await drafted(WORLD_VECTOR, true);
    const followed = await graphStage(drafts, parts);
    expect(followed.map((d) => d.memory.id)).not.toContain('group');
    expect(followed.find((d) => d.memory.id === 'chose')?.graph).toMatchObject({ about: true, via: 'Caroline' });
  });

  it('leaves the drafts as they are when the query names no entity the store knows', async () => {
    const { drafts, parts } = await drafted(WORLD_VECTOR);
    expect(await graphStage(drafts, { ...parts, graph: null })).toBe(drafts);
  });
});
