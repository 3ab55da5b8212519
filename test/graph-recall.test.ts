/**
 * Graph-aware recall through the engine, on a real SQLite file: the entities a query names lead
 * to what they said, one hop further, to dated memories for questions about time and to the
 * turns beside the best hit; hits and receipts say the path; a query that names no entity ranks
 * exactly as without the graph; the switch in engram.toml and per search turns it off, and so
 * does reciprocal-rank fusion; one activation decision reads the query's graph once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { searchCandidates } from '../src/activation/candidates.js';
import { parseConfig } from '../src/config/load.js';
import { retrievalSettings } from '../src/engram/search-request.js';
import { type Engram, InvalidInputError, manualClock, type Memory, openEngram, type SearchHit } from '../src/index.js';
import { calibrate } from '../src/retrieval/calibration.js';
import { fusedRelevance, liftedLevel } from '../src/retrieval/fused-relevance.js';
import { GRAPH_BOOST } from '../src/retrieval/graph-recall.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';

const DAY = '2023-05-08T12:00:00.000Z';
const said = (speaker: string, words: string) => `${speaker} said, "${words}"`;

/** `store` with a count of the calls to each method. */
function countingStore(store: Store): { store: Store; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const counted = new Proxy(store, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof name !== 'string' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(name, (calls.get(name) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: counted, calls };
}

/** One conversation (session s1), a second one, and loose facts. */
const CONVERSATION = [
  said('Melanie', 'Hey Caroline, how have you been this week?'),
  said('Caroline', 'I went to a LGBTQ support group yesterday and it was so powerful.'),
  said('Melanie', 'That sounds wonderful! What happened there?'),
  said('Caroline', 'People shared their stories and I felt accepted.'),
  said('Melanie', 'I finally painted the lake at sunrise.'),
];

describe('graph-aware recall', () => {
  let dir: string;
  let engram: Engram;
  const turns: Memory[] = [];
  const facts: Record<string, Memory> = {};

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'engram-graph-recall-'));
    engram = await openEngram({ path: path.join(dir, 'engram.db'), embedder: null, clock: manualClock(DAY) });
    for (const text of CONVERSATION)
      turns.push(await engram.remember({ text, kind: 'episode', sessionId: 's1', occurredAt: DAY }));
    facts.center = await engram.remember({ text: 'On weekdays the library hosts LGBTQ meetups.' });
    facts.alice = await engram.remember({ text: 'Alice works at Acme in Berlin.' });
    facts.cat = await engram.remember({ text: 'The cat sleeps on the sofa every afternoon.' });
  });
  afterAll(async () => {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const search = (query: string, graph?: boolean, fusion: 'weighted' | 'rrf' = 'weighted') =>
    engram.search({ query, limit: 20, recordRetrieval: false, fusion, ...(graph === undefined ? {} : { graph }) });
  const hitOf = (hits: SearchHit[], memory: Memory | undefined) => hits.find((hit) => hit.memory.id === memory?.id);

  it('leads from a named person to what they said, with the path and the signal on each hit', async () => {
    const hits = await search('What did Caroline feel?');
    const plain = await search('What did Caroline feel?', false);

    const hers = hitOf(hits, turns[3]);
    expect(hers?.via).toBe('Caroline');
    expect(hers?.signals.graph).toBeGreaterThan(0);
    expect(hers!.relevance).toBeGreaterThan(hitOf(plain, turns[3])!.relevance);
    // Melanie greets Caroline by name: addressed to her, not about her.
    expect(String(hitOf(hits, turns[0])?.via)).not.toMatch(/^Caroline/);
    expect(plain.every((hit) => hit.signals.graph === null && hit.via === null)).toBe(true);
  });

  it('follows a stated relation one hop and names both ends, but not the speaker-mention ties', async () => {
    const query = 'Where could Caroline go on weekdays?';
    // Extraction ties Caroline to LGBTQ (she talks about it): too loose a tie to follow.
    expect(hitOf(await search(query), facts.center)?.via).toBeNull();

    await engram.graph.createRelations([{ from: 'Caroline', to: 'LGBTQ', relationType: 'volunteers_for' }]);
    try {
      const meetups = hitOf(await search(query), facts.center);
      expect(meetups?.via).toBe('Caroline → LGBTQ');
      expect(meetups?.signals.graph).toBeCloseTo(GRAPH_BOOST.hop, 5);
    } finally {
      await engram.graph.deleteRelations([{ from: 'Caroline', to: 'LGBTQ', relationType: 'volunteers_for' }]);
    }
  });

  it('takes a question about time to the dated memories on the path', async () => {
    const hits = await search('When did Caroline go to the support group?');
    expect(hits[0]?.memory.id).toBe(turns[1]?.id);
    expect(hits[0]?.via).toBe('Caroline → 2023-05-07');
    expect(hits[0]?.signals.graph).toBeCloseTo(GRAPH_BOOST.about + GRAPH_BOOST.time, 5);
    // Her undated turn is about her too, but carries no date.
    expect(hitOf(hits, turns[3])?.via).toMatch(/^Caroline(;|$)/);
  });

  it('lifts the turns beside the best hit towards it, never past it', async () => {
    const query = 'When did Caroline go to the support group?';
    const hits = await search(query);
    const plain = await search(query, false);
    const reply = hitOf(hits, turns[2]);

    expect(reply?.via).toBe(`beside ${turns[1]?.id} in its session`);
    expect(reply!.signals.graph!).toBeGreaterThan(0);
    expect(reply!.relevance).toBeGreaterThan(hitOf(plain, turns[2])?.relevance ?? 0);
    expect(reply!.score).toBeLessThan(hits[0]!.score);
  });

  it('ranks a query that names no entity exactly as search without the graph', async () => {
    for (const query of ['where does the cat sleep', 'painting the lake at sunrise', 'support group stories']) {
      expect(await search(query)).toEqual(await search(query, false));
    }
  });

  it('treats names case-insensitively and reaches memories without any speaker', async () => {
    const hits = await search('where does alice work?');
    expect(hits[0]?.memory.id).toBe(facts.alice?.id);
    // A question about a place: the path names the place the memory names.
    expect(hits[0]?.via).toBe('Alice → Berlin');
  });

  it('is switched off by [graph] recall = false, and a search can still ask for it', async () => {
    const off = await openEngram({
      path: path.join(dir, 'engram.db'),
      embedder: null,
      clock: manualClock(DAY),
      config: { graph: { recall: false } },
    });
    try {
      const query = 'When did Caroline go to the support group?';
      expect(await off.search({ query, recordRetrieval: false })).toEqual(await search(query, false).then((h) => h.slice(0, 10)));
      const asked = await off.search({ query, graph: true, recordRetrieval: false });
      expect(asked[0]?.via).toBe('Caroline → 2023-05-07');
    } finally {
      await off.close();
    }
  });

  it('is not consulted under reciprocal-rank fusion, which ranks only by places in the index lists', async () => {
    // A memory only the graph found has no place in either list: it would score 0 and be dropped.
    const query = 'When did Caroline go to the support group?';
    const hits = await search(query, true, 'rrf');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.signals.graph === null && hit.via === null)).toBe(true);
    expect(hits).toEqual(await search(query, false, 'rrf'));
  });

  it('reads the graph of the query once for the pool and every tier searched alone, and follows mentions and surroundings for the pool only', async () => {
    const sqlite = new SqliteStore(path.join(dir, 'engram.db'));
    const { store, calls } = countingStore(sqlite);
    try {
      const query = 'When did Caroline go to the support group?';
      const hits = await searchCandidates({
        store,
        embedder: null,
        tenant: engram.tenant,
        scopes: undefined,
        query,
        queryVector: null,
        limit: 2,
        // Every tier is short of what it wants, so each is searched on its own after the pool.
        wanted: { must: 99, nice: 99, unknown: 99 },
        threshold: 0,
        now: new Date(DAY),
        retrieval: retrievalSettings(parseConfig({})),
      });
      expect(hits.some((hit) => hit.via !== null)).toBe(true);
      expect(calls.get('searchLexical')).toBe(4);
      expect(calls.get('findEntities')).toBe(1);
      expect(calls.get('listRelations')).toBe(1);
      // Only the pool adds memories about the named entities; a tier's own search is bounded.
      expect(calls.get('listMentionsOfEntities')).toBe(1);
      // Each search reads the turns beside its best two hits; only the pool also reads how the
      // turns beside its candidates matched (for the fused order).
      expect(calls.get('listSessionNeighbours')).toBe(4 + 1);
    } finally {
      await sqlite.close();
    }
  });

  it('refuses a graph switch that is not true or false, saying so', async () => {
    await expect(engram.search({ query: 'Caroline', graph: 'yes' as unknown as boolean })).rejects.toThrow(InvalidInputError);
    await expect(engram.search({ query: 'Caroline', graph: 'yes' as unknown as boolean })).rejects.toThrow(
      'graph must be true or false',
    );
  });

  it('orders a search that names an entity by the fused score, shown as relevance on the fused curve', async () => {
    const withModel = await openEngram({ path: path.join(dir, 'fused.db'), clock: manualClock(DAY) });
    try {
      for (const text of CONVERSATION) await withModel.remember({ text, kind: 'episode', sessionId: 's1', occurredAt: DAY });
      await withModel.remember({ text: 'The cat sleeps on the sofa every afternoon.' });
      const run = (query: string, graph?: boolean) =>
        withModel.search({ query, limit: 20, recordRetrieval: false, ...(graph === undefined ? {} : { graph }) });
      const summed = (hit: SearchHit) => hit.relevance * hit.factors.recency * hit.factors.scope * hit.factors.exact;

      const hits = await run('What did Caroline feel at the support group?');
      const plain = await run('What did Caroline feel at the support group?', false);
      // Every hit was ranked by the fused score (fused-rank.ts), which its relevance carries:
      // the order is the fused one, and score is relevance × factors in both searches.
      expect(hits.every((hit) => hit.signals.fused !== null)).toBe(true);
      expect(plain.every((hit) => hit.signals.fused === null)).toBe(true);
      const byFused = [...hits].sort((a, b) => (b.signals.fused?.score ?? 0) - (a.signals.fused?.score ?? 0));
      expect(hits.map((hit) => hit.memory.id)).toEqual(byFused.map((hit) => hit.memory.id));
      expect(hits.map((hit) => hit.score)).toEqual([...hits.map((hit) => hit.score)].sort((a, b) => b - a));
      for (const hit of [...hits, ...plain]) expect(hit.score).toBeCloseTo(summed(hit), 12);
      for (const hit of hits) {
        const fused = hit.signals.fused;
        expect(hit.relevance).toBeCloseTo(fused ? fusedRelevance(fused.score, fused) : -1, 12);
      }
      // The best hit by the fused order shows the search's level — the best calibrated relevance
      // among its candidates — lifted toward 1 above active recall's 0.6.
      expect(hits[0]?.relevance).toBe(liftedLevel(hits[0]?.signals.fused?.level ?? Number.NaN));
      expect(hits[0]?.signals.fused?.level).toBe(Math.max(...hits.map((hit) => calibrate(hit.raw))));
      // A query that names no entity is ranked as without the graph.
      expect(await run('where does the cat sleep')).toEqual(await run('where does the cat sleep', false));
    } finally {
      await withModel.close();
    }
  });

  it('ranks, in the fused order, the turn that tells above the turn that asked about the same thing', async () => {
    const withModel = await openEngram({ path: path.join(dir, 'asks.db'), clock: manualClock(DAY) });
    try {
      const talk = [
        said('Melanie', 'Caroline, what is the name of your new puppy?'),
        said('Caroline', 'She is called Shadow, my new puppy.'),
      ];
      const [asked, told] = await Promise.all(
        talk.map((text) => withModel.remember({ text, kind: 'episode', sessionId: 's2', occurredAt: DAY })),
      );
      const hits = await withModel.search({
        query: "What is the name of Caroline's new puppy?",
        limit: 5,
        recordRetrieval: false,
      });
      const place = (memory: Memory | undefined) => hits.findIndex((hit) => hit.memory.id === memory?.id);
      expect(place(told)).toBe(0);
      expect(place(asked)).toBeGreaterThan(0);
      // The question matched at least as well by words: only the order moved, not relevance.
      expect(hitOf(hits, asked)!.signals.coverage).toBeGreaterThanOrEqual(hitOf(hits, told)!.signals.coverage);
    } finally {
      await withModel.close();
    }
  });

  it('ranks, in the fused order, a turn of the session the question is about above the same words in another session', async () => {
    let next = 0;
    const ids = () => `M${String(next++).padStart(25, '0')}`;
    const withModel = await openEngram({ path: path.join(dir, 'sessions.db'), clock: manualClock(DAY), ids });
    try {
      const filler = ['Melanie said, "The weather was lovely."', 'Caroline said, "Yes, sunny all day."'];
      const weak = said('Caroline', 'We went to the vet on Monday.');
      const about = [said('Caroline', 'My puppy Shadow had her first vaccination shots at the vet.'), ...filler, weak];
      const elsewhere = [...filler, weak];
      const stored: Memory[] = [];
      // The other session is stored first: where the two weak turns tie (ids, places in the lists) it is ahead.
      for (const [session, texts] of [
        ['s4', elsewhere],
        ['s3', about],
      ] as const)
        for (const text of texts)
          stored.push(await withModel.remember({ text, kind: 'episode', sessionId: session, occurredAt: DAY }));
      const hits = await withModel.search({
        query: "What shots did Caroline's puppy get at the vet?",
        limit: 20,
        recordRetrieval: false,
      });
      const inOther = hitOf(hits, stored[2]);
      const inAbout = hitOf(hits, stored[6]);
      // The same words and the same raw score; the fused order, which relevance carries, puts the
      // turn of the session the question is about first.
      expect(inAbout!.raw).toBeCloseTo(inOther!.raw, 6);
      expect(inAbout!.relevance).toBeGreaterThan(inOther!.relevance);
      expect(inAbout!.score).toBeGreaterThan(inOther!.score);
    } finally {
      await withModel.close();
    }
  });

  it('says the path in the receipt of active recall (with the local model, which active recall needs)', async () => {
    const withModel = await openEngram({ path: path.join(dir, 'model.db'), clock: manualClock(DAY) });
    try {
      const stored: Memory[] = [];
      for (const text of CONVERSATION)
        stored.push(await withModel.remember({ text, kind: 'episode', sessionId: 's1', occurredAt: DAY }));
      const turn = await withModel
        .session({ id: 'graph-receipt' })
        .beforeTurn('When did Caroline go to the LGBTQ support group?');
      const chosen = turn.receipt?.chosen.find((entry) => entry.id === stored[1]?.id);
      expect(chosen?.via).toBe('Caroline → 2023-05-07');
      expect(turn.receipt?.whyTheseIds[stored[1]!.id]).toContain('via Caroline → 2023-05-07');
    } finally {
      await withModel.close();
    }
  });
});
