/**
 * Hybrid search through the engine, with the real local model: relevance on one scale,
 * context for short memories, the four modes, both fusions, and the filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Engram, manualClock, type Memory, openEngram } from '../src/index.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

describe('hybrid search', () => {
  let engram: Engram;
  const ids: Record<string, Memory> = {};

  beforeAll(async () => {
    engram = await openEngram({ store: new SqliteStore(':memory:'), clock: manualClock('2026-06-01T00:00:00.000Z') });
    const add = async (name: string, input: Parameters<Engram['remember']>[0]) => {
      ids[name] = await engram.remember(input);
    };
    await add('billing', { text: 'We chose PostgreSQL for billing because the team already runs it', kind: 'decision' });
    await add('cat', { text: 'The cat sleeps on the sofa every afternoon' });
    await add('question', {
      text: 'Melanie said, "Have you been to any of those support groups lately?"',
      occurredAt: '2023-05-08T00:00:00Z',
    });
    await add('answer', {
      text: 'Caroline said, "Yes, I went yesterday and it was so powerful."',
      context: 'Melanie said, "Have you been to any of those support groups lately?"',
      occurredAt: '2023-05-08T00:00:00Z',
    });
    await add('old', { text: 'Deploys happen on Tuesdays', occurredAt: '2020-01-01T00:00:00Z' });
    await add('new', { text: 'Deploys happen on Thursdays now', occurredAt: '2026-05-30T00:00:00Z' });
  });
  afterAll(() => engram.close());

  const search = (query: string, extra: Partial<Parameters<Engram['search']>[0] & object> = {}) =>
    engram.search({ query, recordRetrieval: false, ...extra });

  it('gives an answering memory a relevance above the 0.6 threshold and unrelated ones below 0.5', async () => {
    const hits = await search('which database do we use for billing?');
    expect(hits[0]?.memory.id).toBe(ids.billing?.id);
    expect(hits[0]?.relevance).toBeGreaterThan(0.6);
    for (const hit of hits.slice(1)) expect(hit.relevance).toBeLessThan(0.5);
  });

  it('finds a reply that only makes sense with the turn before it, through its context', async () => {
    const hits = await search('Did Caroline go to a support group?');
    const answer = hits.find((hit) => hit.memory.id === ids.answer?.id);
    expect(answer).toBeDefined();
    expect(answer?.signals.coverage).toBeGreaterThan(0);
    expect(hits.slice(0, 2).map((hit) => hit.memory.id)).toContain(ids.answer?.id);
  });

  it('shows every signal and factor of a hit', async () => {
    // Without the graph: a search whose query names an entity (PostgreSQL) is ranked by the fused
    // score instead of relevance × factors (see graph-recall.test.ts).
    const [top] = await search('PostgreSQL billing', { graph: false });
    expect(top?.signals).toMatchObject({
      coverage: 1,
      keyword: expect.any(Number),
      cosine: expect.any(Number),
      bm25: expect.any(Number),
    });
    expect(top?.factors).toEqual({ recency: expect.any(Number), scope: 1, exact: 1, cooldown: 1 });
    expect(top?.score).toBeCloseTo((top?.relevance ?? 0) * (top?.factors.recency ?? 0), 10);
  });

  it('ranks a newer memory above an older one that matches as well', async () => {
    const hits = await search('when do deploys happen');
    const order = hits.map((hit) => hit.memory.id);
    expect(order.indexOf(ids.new?.id ?? '')).toBeLessThan(order.indexOf(ids.old?.id ?? ''));
    const old = hits.find((hit) => hit.memory.id === ids.old?.id);
    expect(old?.factors.recency).toBeLessThan(0.97); // six years old: most of the 5% recency weight lost
  });

  it('ranks by one signal in bm25, dense and keyword modes', async () => {
    const bm25 = await search('PostgreSQL', { mode: 'bm25' });
    expect(bm25.map((hit) => hit.memory.id)).toEqual([ids.billing?.id]);
    const dense = await search('a pet resting on furniture', { mode: 'dense' });
    expect(dense[0]?.memory.id).toBe(ids.cat?.id);
    expect(dense[0]?.relevance).toBeCloseTo(dense[0]?.signals.cosine ?? -1, 10);
    const keyword = await search('cat sofa afternoon', { mode: 'keyword' });
    expect(keyword[0]?.memory.id).toBe(ids.cat?.id);
    expect(keyword[0]?.relevance).toBeCloseTo(3 / 5, 10); // cat, sofa, afternoon of {cat, sleeps, sofa, every, afternoon}
  });

  it('fuses by reciprocal rank when asked, keeping the calibrated relevance', async () => {
    const [top] = await search('which database do we use for billing?', { fusion: 'rrf' });
    expect(top?.memory.id).toBe(ids.billing?.id);
    expect(top?.relevance).toBeGreaterThan(0.6);
  });

  it('drops results below a minimum relevance', async () => {
    const hits = await search('which database do we use for billing?', { minRelevance: 0.6 });
    expect(hits.map((hit) => hit.memory.id)).toEqual([ids.billing?.id]);
  });

  it('filters by when memories occurred', async () => {
    const hits = await search('deploys', { occurredBefore: '2021-01-01', mode: 'bm25' });
    expect(hits.map((hit) => hit.memory.id)).toEqual([ids.old?.id]);
    await expect(search('deploys', { occurredAfter: 'not a date' })).rejects.toThrow(/occurredAfter is not a valid date/);
  });

  it('refuses an unknown mode or fusion with the allowed values', async () => {
    await expect(search('x', { mode: 'magic' as never })).rejects.toThrow(
      /unknown search mode magic: choose from hybrid, bm25, dense, keyword/,
    );
    await expect(search('x', { fusion: 'sum' as never })).rejects.toThrow(/unknown fusion sum: choose from weighted, rrf/);
  });
});
