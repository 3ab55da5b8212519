import { describe, expect, it } from 'vitest';

import { makeMemory, TENANT } from '../../test/fixtures/memory.js';
import { searchSettings } from '../../test/fixtures/search-settings.js';
import { makeEntity, searchStore, searchWorld, WORLD_QUERY, WORLD_VECTOR } from '../../test/fixtures/search-store.js';
import type { Mention } from '../model/graph.js';
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

/**
 * Caroline's turns over two weeks of January 2025, all naming Miami, one a day: the one of
 * 8 January is the oldest but one, so it is not among her newest ten, and its words match the
 * question no better than the others'.
 */
const FRIENDS = ['Ana', 'Ben', 'Cy', 'Dee', 'Eli', 'Fay', 'Gus', 'Hal', 'Ida', 'Jo', 'Kit', 'Lu', 'Max', 'Ned'];
const QUERY_VECTOR = Float32Array.of(0.5, 0.5, 0.5, 0.5);

function miamiWeeks() {
  const tenant = TENANT;
  const days = Array.from({ length: 14 }, (_, i) => `2025-01-${String(i + 7).padStart(2, '0')}T18:00:00.000Z`);
  const memories = days.map((occurredAt, i) =>
    makeMemory({ id: `turn-${i + 7}`, text: `Another evening out in Miami with ${FRIENDS[i]}`, occurredAt, sessionId: `s${i}` }),
  );
  memories.push(makeMemory({ id: 'home', text: 'Home all evening with a good book', occurredAt: days[1], sessionId: 'home' }));
  // The day's turns are a little further from the query than the rest: no index returns them first.
  const vector = (id: string) =>
    ['turn-7', 'turn-8', 'turn-9', 'home'].includes(id) ? Float32Array.of(0.6, 0.4, 0.5, 0.5) : QUERY_VECTOR;
  return searchStore({
    memories,
    vectors: Object.fromEntries(memories.map((m) => [m.id, vector(m.id)])),
    entities: [
      makeEntity({ tenant, id: 'e-caroline', name: 'Caroline' }),
      makeEntity({ tenant, id: 'e-miami', name: 'Miami', type: 'place' }),
    ],
    mentions: memories.flatMap((m): Mention[] => [
      { tenant, memoryId: m.id, entityId: 'e-caroline', role: 'speaker' },
      ...(m.id === 'home' ? [] : [{ tenant, memoryId: m.id, entityId: 'e-miami', role: 'mention' as const }]),
    ]),
  });
}

/** `question` through the stages up to the graph's, on `store`, with vectors on. */
async function followed(store: ReturnType<typeof searchStore>, question: string, bounded = false) {
  const vector = QUERY_VECTOR;
  const query = prepareQuery(store, {
    query: question,
    mode: 'hybrid',
    settings: searchSettings(),
    embedder: { id: 'fixed', dimensions: 4, embed: async () => [vector] },
    tenant: TENANT,
    now: NOW,
    scopes: undefined,
  });
  const found = await gatherCandidates({ store, query, filter: FILTER, pool: 2, bounded });
  const draft = draftCandidates({
    store,
    tenant: TENANT,
    queryVector: found.queryVector,
    vector: found.vector,
    bm25: found.bm25,
    readable: 1,
    wordsOf: query.wordsOf,
    readsMissingCosines: true,
    raw: (signals) => query.strategy.raw(signals, true),
  });
  const drafts = await draft([...new Set([...found.lexical, ...found.vector].map((hit) => hit.id))]);
  const all = await graphStage(drafts, {
    store,
    filter: FILTER,
    graph: found.graph,
    draft,
    bounded,
    hasVector: true,
    lexicalRanks: found.ranks.lexical,
  });
  const best = [...all].sort((a, b) => (b.signals.fused?.score ?? 0) - (a.signals.fused?.score ?? 0));
  return {
    ids: all.map((d) => d.memory.id),
    best: best.map((d) => d.memory.id),
    byId: new Map(all.map((d) => [d.memory.id, d])),
  };
}

describe('the graph stage: a day the question pins, a place it asks for', () => {
  it.each(['Where was Caroline on 8 January 2025?', 'Where was Caroline on 08.01.2025?', 'Where was Caroline on January 8th?'])(
    'adds the named person’s memories of the day %j pins, found by no index, and ranks them first',
    async (question) => {
      const { ids, best, byId } = await followed(miamiWeeks(), question);
      // Not among her newest ten, found by neither index: reached through the day.
      expect(ids).toContain('turn-8');
      expect(byId.get('turn-8')?.graph).toMatchObject({ onDay: true, via: 'Caroline → Miami; on 2025-01-08' });
      // The turns of a day either side count as on it; the others do not.
      expect(byId.get('turn-9')?.graph?.onDay).toBe(true);
      expect(byId.get('turn-20')?.graph?.onDay).toBe(false);
      expect(best.slice(0, 3).sort()).toEqual(['turn-7', 'turn-8', 'turn-9']);
    },
  );

  it('adds no memories of the day in a bounded search', async () => {
    const { ids } = await followed(miamiWeeks(), 'Where was Caroline on 8 January 2025?', true);
    expect(ids).not.toContain('turn-8');
  });

  it('ranks her memory that names a place above one that names none, for a question about a place', async () => {
    const { byId } = await followed(miamiWeeks(), 'Where was Caroline on 8 January 2025?');
    const home = byId.get('home');
    const miami = byId.get('turn-8');
    expect(home?.graph).toMatchObject({ onDay: true, placed: false });
    expect(miami?.graph).toMatchObject({ onDay: true, placed: true });
    expect(miami!.signals.fused!.score).toBeGreaterThan(home!.signals.fused!.score);
  });

  it('pins nothing and places nothing for a question that names no day and asks for no place', async () => {
    const { ids, byId } = await followed(miamiWeeks(), 'What did Caroline read?');
    expect(ids).not.toContain('turn-8');
    expect([...byId.values()].some((d) => d.graph?.onDay || d.graph?.placed)).toBe(false);
  });
});
