/**
 * Per-store calibration through the engine, with the real local model and a real SQLite file:
 * on a grown store, a query that resembles much of it loses relevance by one factor on every
 * hit, in the same order as without the correction; a young store keeps the fixed curve;
 * the shift is the same for the same store in a new engine, and follows what this engine, or
 * another on the same file, forgets; receipts and stats show it. The sample itself is spread over the whole store, old
 * memories as well as new, by the random part of their ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type EmbeddingCache, withEmbeddingCache } from '../src/embedding/cached-embedder.js';
import { parseSearchRequest } from '../src/engram/search-request.js';
import { createLocalEmbedder, type Engram, manualClock, openEngram } from '../src/index.js';
import { ulidGenerator } from '../src/model/ids.js';
import { calibrate } from '../src/retrieval/calibration.js';
import { CalibrationSamples, SAMPLE_SIZE } from '../src/retrieval/calibration-sample.js';
import { stemSet } from '../src/retrieval/coverage.js';
import { fusedRelevance } from '../src/retrieval/fused-relevance.js';
import { hybridSearch, type SearchHit } from '../src/retrieval/hybrid-search.js';
import { sampleRelevances, shiftRelevance, storeShift } from '../src/retrieval/store-calibration.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { makeTempDir, runOk } from './cli/helpers.js';
import { makeMemory, minutesAfterEpoch, TENANT } from './fixtures/memory.js';
import { gaussian, seededRandom } from './fixtures/random.js';

const CLOCK = '2026-06-01T00:00:00.000Z';
const PLACES = ['garden', 'kitchen', 'office', 'station', 'library', 'harbour', 'market', 'school', 'museum', 'park'];
const THINGS = ['bicycle', 'recipe', 'painting', 'letter', 'concert', 'hike', 'movie', 'puzzle', 'song', 'trip'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];

/** A hit's relevance before the store's shift: the fused curve's when the fused order ranked it, else the fixed curve's. */
function curveOf(hit: SearchHit): number {
  return hit.signals.fused === null ? calibrate(hit.raw) : fusedRelevance(hit.signals.fused.score, hit.signals.fused);
}

/** `count` turns, every one said by Alice: a query naming her resembles the whole store. */
function aliceTurns(count: number): string[] {
  return Array.from(
    { length: count },
    (_, i) =>
      `Alice said, "On ${DAYS[i % 5]} I talked about the ${THINGS[i % 10]} at the ${PLACES[Math.floor(i / 10) % 10]} (${i})."`,
  );
}

const QUERY = 'What did Alice say about the bicycle at the garden?';

/** Vectors the local model made in this file, by text: the stores below hold many of the same turns. */
function memoryCache(): EmbeddingCache {
  const vectors = new Map<string, Float32Array>();
  const key = (model: string, hash: string) => `${model} ${hash}`;
  return {
    getCachedEmbeddings: async (model, hashes) => {
      const found = new Map<string, Float32Array>();
      for (const hash of hashes) {
        const vector = vectors.get(key(model, hash));
        if (vector) found.set(hash, vector.slice());
      }
      return found;
    },
    putCachedEmbeddings: async (model, entries) => {
      for (const { hash, vector } of entries) vectors.set(key(model, hash), vector.slice());
    },
  };
}

describe('per-store calibration', () => {
  const temp = makeTempDir();
  // The real local model, each text embedded once: a turn a second store holds gets the vector the first one got.
  const embedder = withEmbeddingCache(createLocalEmbedder(), memoryCache());
  // Ids from a seeded generator: which memories fall in the sample is the same on every run.
  const open = async (name: string, store?: SqliteStore) =>
    openEngram({
      store: store ?? new SqliteStore(`${temp.dir}/${name}.db`),
      embedder,
      clock: manualClock(CLOCK),
      ids: ulidGenerator(manualClock(CLOCK), seededRandom(name.length)),
    });
  let grown: Engram;
  let store: SqliteStore;

  beforeAll(async () => {
    store = new SqliteStore(`${temp.dir}/grown.db`);
    grown = await open('grown', store);
    await grown.rememberMany(aliceTurns(300).map((text) => ({ text, kind: 'episode' as const })));
  });
  afterAll(async () => {
    await grown.close();
    await embedder.close?.();
    temp.remove();
  });

  it('takes the same amount off every hit of a query that resembles much of a grown store', async () => {
    const hits = await grown.search({ query: QUERY, limit: 20, recordRetrieval: false });
    const shift = hits[0]?.storeShift ?? 0;
    expect(shift).toBeGreaterThan(0.02);
    for (const hit of hits) {
      expect(hit.storeShift).toBe(shift);
      expect(hit.relevance).toBeCloseTo(shiftRelevance(curveOf(hit), shift), 10);
      expect(hit.score).toBeCloseTo(hit.relevance * hit.factors.recency * hit.factors.scope * hit.factors.exact, 12);
    }
  });

  // With the graph, a query naming Alice ranks by the fused score; without it, by relevance × factors.
  it.each([true, false])('keeps the order and the scores of the search without it (graph %s)', async (graph) => {
    const options = { query: QUERY, limit: 20, recordRetrieval: false, graph };
    const request = parseSearchRequest(options, grown.config);
    const plain = await hybridSearch({
      ...request,
      cooldown: undefined,
      store,
      embedder,
      filter: { tenant: grown.tenant, excludeKinds: ['working_set'] },
      now: new Date(CLOCK),
    });
    const hits = await grown.search(options);
    expect(hits[0]?.storeShift).toBeGreaterThan(0.02);
    expect(hits.map((hit) => hit.memory.id)).toEqual(plain.map((hit) => hit.memory.id));
    // One factor for every hit of the search: the scores keep their ratios.
    const factor = shiftRelevance(1, hits[0]?.storeShift ?? 0);
    hits.forEach((hit, i) => expect(hit.score).toBeCloseTo((plain[i]?.score ?? 0) * factor, 12));
    expect(plain.every((hit) => hit.storeShift === 0 && hit.relevance === curveOf(hit))).toBe(true);
  });

  it('gives the same shift for the same store in a new engine', async () => {
    const [before] = await grown.search({ query: QUERY, limit: 1, recordRetrieval: false });
    const again = await open('grown');
    try {
      const [after] = await again.search({ query: QUERY, limit: 1, recordRetrieval: false });
      expect(after?.storeShift).toBe(before?.storeShift);
    } finally {
      await again.close();
    }
  });

  it('reads only the memories new to the sample when some arrive, and shifts as a new engine would', async () => {
    const file = new SqliteStore(`${temp.dir}/arrivals.db`);
    const engine = await open('arrivals', file);
    const asked: string[][] = [];
    const getVectors = file.getVectors.bind(file);
    file.getVectors = async (tenant, ids) => {
      asked.push([...ids]);
      return getVectors(tenant, ids);
    };
    try {
      await engine.rememberMany(aliceTurns(260).map((text) => ({ text, kind: 'episode' as const })));
      await engine.search({ query: QUERY, limit: 5, recordRetrieval: false });
      expect(asked.some((ids) => ids.length === 256)).toBe(true);
      asked.length = 0;
      const added = await engine.rememberMany(
        ['the bicycle again', 'the garden again', 'a new song'].map((text) => ({
          text: `Alice said, "${text}"`,
          kind: 'episode' as const,
        })),
      );
      const [hit] = await engine.search({ query: QUERY, limit: 5, recordRetrieval: false });
      // A new memory enters the sample only where its id falls; those that did are all that is read.
      const sample = new Set(
        (await file.listMemories({ tenant: engine.tenant }, { limit: SAMPLE_SIZE, order: 'spread' })).map((m) => m.id),
      );
      const entered = added.map((memory) => memory.id).filter((id) => sample.has(id));
      expect(entered.length).toBeGreaterThan(0);
      const newIds = new Set(added.map((memory) => memory.id));
      expect(asked.filter((ids) => ids.length > 0 && ids.every((id) => newIds.has(id))).map((ids) => [...ids].sort())).toEqual([
        entered.sort(),
      ]);
      expect(asked.every((ids) => ids.length < 200)).toBe(true);
      const again = await open('arrivals');
      try {
        const [fresh] = await again.search({ query: QUERY, limit: 5, recordRetrieval: false });
        expect(hit?.storeShift).toBeGreaterThan(0);
        expect(hit?.storeShift).toBe(fresh?.storeShift);
      } finally {
        await again.close();
      }
    } finally {
      await engine.close();
    }
  });

  it('leaves a young store on the fixed curve', async () => {
    const young = await open('young');
    try {
      await young.rememberMany(aliceTurns(40).map((text) => ({ text, kind: 'episode' as const })));
      const hits = await young.search({ query: QUERY, limit: 20, recordRetrieval: false });
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) {
        expect(hit.storeShift).toBe(0);
        expect(hit.relevance).toBeCloseTo(curveOf(hit), 10);
      }
      expect((await young.stats()).calibration).toMatchObject({ sampled: 40, weight: 0, young: true });
      // Forgetting the oldest memory leaves the newest one as it was: the sample follows all the same.
      const [oldest] = await young.list({ order: 'oldest', limit: 1 });
      await young.forget(oldest?.id ?? '');
      expect((await young.stats()).calibration).toMatchObject({ sampled: 39 });
    } finally {
      await young.close();
    }
  });

  it("follows another engine's writes to the same file, whichever memory they touch", async () => {
    const first = await open('shared');
    const second = await open('shared');
    try {
      await first.rememberMany(aliceTurns(40).map((text) => ({ text, kind: 'episode' as const })));
      expect((await first.stats()).calibration).toMatchObject({ sampled: 40 });
      // The oldest memory: the newest stays as it was, yet the sample must lose it.
      const [oldest] = await second.list({ order: 'oldest', limit: 1 });
      await second.forget(oldest?.id ?? '');
      expect((await first.stats()).calibration).toMatchObject({ sampled: 39 });
    } finally {
      await second.close();
      await first.close();
    }
  });

  // The engine's clock stands still: an edit leaves a member's updatedAt as it was, and only what
  // the member was made from tells the sample to read it again. Nothing clears the sample by hand.
  it("sees this engine's edits, forgetting and restoring in the next search's shift, as a new engine would", async () => {
    const file = new SqliteStore(`${temp.dir}/edited.db`);
    const engine = await open('edited', file);
    const shiftOf = async (engram: Engram) =>
      (await engram.search({ query: QUERY, limit: 1, recordRetrieval: false }))[0]?.storeShift ?? 0;
    const shiftOfNewEngine = async () => {
      const fresh = await open('edited');
      try {
        return await shiftOf(fresh);
      } finally {
        await fresh.close();
      }
    };
    try {
      await engine.rememberMany(aliceTurns(220).map((text) => ({ text, kind: 'episode' as const })));
      const before = await shiftOf(engine);
      expect(before).toBeGreaterThan(0.02);
      const sample = await file.listMemories({ tenant: engine.tenant }, { limit: SAMPLE_SIZE, order: 'spread' });
      const edited = sample.slice(0, 150);
      for (const [i, memory] of edited.entries()) {
        await engine.update(memory.id, { text: `The ${PLACES[i % 10]} rota for week ${i} lists ${THINGS[i % 10]} duty.` });
      }
      expect((await engine.get(edited[0]?.id ?? ''))?.updatedAt).toBe(edited[0]?.updatedAt);
      const afterEdit = await shiftOf(engine);
      expect(afterEdit).toBeLessThan(before);
      expect(afterEdit).toBe(await shiftOfNewEngine());

      for (const memory of edited) await engine.forget(memory.id);
      const afterForget = await shiftOf(engine);
      expect(afterForget).toBe(await shiftOfNewEngine());

      for (const memory of edited) await engine.restore(memory.id);
      expect(await shiftOf(engine)).toBe(afterEdit);
      expect(await shiftOf(engine)).toBe(await shiftOfNewEngine());
    } finally {
      await engine.close();
    }
  });

  it('shows the shift among the receipt factors', async () => {
    const { receipt } = await grown.session({ id: 'calibrated' }).beforeTurn(QUERY);
    const entries = [...(receipt?.chosen ?? []), ...(receipt?.leftOut ?? [])].filter((entry) => entry.factors);
    expect(entries.length).toBeGreaterThan(0);
    // One decision, one scale: every candidate loses the same amount.
    const shift = entries[0]?.factors?.storeShift ?? 0;
    expect(shift).toBeGreaterThan(0.02);
    for (const { factors } of entries) {
      expect(factors?.storeShift).toBe(shift);
      const curve =
        factors?.fused === undefined ? calibrate(factors?.raw ?? -1) : fusedRelevance(factors.fused.score, factors.fused);
      expect(factors?.relevance).toBeCloseTo(shiftRelevance(curve, factors?.storeShift ?? 0), 10);
    }
  });

  it('says on engram stats how the store is calibrated', async () => {
    const screen = await runOk(['stats', '--db', `${temp.dir}/grown.db`], { cwd: temp.dir });
    expect(screen).toMatch(
      /calibration +fixed curve 0→0 0\.29→0\.5 0\.395→0\.6 0\.7→0\.9 1→1, then × 0\.6 \/ \(0\.6 \+ shift\), shift = 0\.5 × \(p90 of the query over the sample − 0\.4\); sample: 256 memories spread over the store/,
    );
  });

  it('says in stats how the store is calibrated', async () => {
    expect((await grown.stats()).calibration).toMatchObject({
      active: true,
      sampled: 256,
      weight: 1,
      young: false,
      reference: 0.4,
      alpha: 0.5,
    });
  });
});

describe('the calibration sample', () => {
  /** `count` memories created one a minute, oldest first, with seeded ULIDs of that time. */
  function memoriesOverTime(count: number) {
    const random = seededRandom(400);
    return Array.from({ length: count }, (_, i) => {
      const createdAt = minutesAfterEpoch(i);
      const id = ulidGenerator(manualClock(createdAt), random)();
      return makeMemory({ id, text: `memory ${i}`, createdAt, updatedAt: createdAt });
    });
  }
  const byTail = (a: string, b: string) => (a.slice(10) === b.slice(10) ? (a < b ? -1 : 1) : a.slice(10) < b.slice(10) ? -1 : 1);

  it('spreads the sample over the whole store, old memories as well as the newest', async () => {
    const store = new SqliteStore(':memory:');
    const memories = memoriesOverTime(400);
    await store.commit({
      insert: [
        ...memories.map((memory) => ({ memory, vector: null })),
        // Left out: a working set repeats other memories, an archived one is gone.
        { memory: makeMemory({ id: '0000000000000000000000000A', kind: 'working_set' }), vector: null },
        { memory: makeMemory({ id: '0000000000000000000000000B', archivedAt: minutesAfterEpoch(500) }), vector: null },
      ],
    });
    const samples = new CalibrationSamples(store);

    const members = (await samples.sampleFor(TENANT)).members.map((member) => member.id);
    const lowestTails = memories
      .map((memory) => memory.id)
      .sort(byTail)
      .slice(0, SAMPLE_SIZE);
    expect(members).toEqual(lowestTails);
    // The newest 256 would leave out all of the oldest 144; an even spread holds about 36% of them.
    const oldest = new Set(memories.slice(0, 400 - SAMPLE_SIZE).map((memory) => memory.id));
    expect(members.filter((id) => oldest.has(id)).length).toBeGreaterThan(30);

    // A new memory enters where its id falls: with the lowest tail, first, and the last member leaves.
    const arrival = makeMemory({ id: '01ZZZZZZZZ0000000000000000', createdAt: minutesAfterEpoch(600) });
    await store.commit({ insert: [{ memory: arrival, vector: null }] });
    expect((await samples.sampleFor(TENANT)).members.map((member) => member.id)).toEqual([
      arrival.id,
      ...lowestTails.slice(0, -1),
    ]);
    await store.close();
  });

  it('does not shift a query about what the store holds lately as if it resembled the whole store', async () => {
    // 600 memories: the oldest 560 about everything else (vectors at random), the newest 40 about
    // one trip (vectors near the query's): the store is mostly unrelated to the query.
    const random = seededRandom(600);
    const randomUnit = () => normalized(Array.from({ length: 32 }, () => gaussian(random)));
    const query = randomUnit();
    const memories = memoriesOverTime(600).map((memory, i) =>
      i < 560
        ? { memory: { ...memory, text: `note ${i} on something else` }, vector: randomUnit() }
        : {
            memory: { ...memory, text: `the bicycle trip, day ${i}` },
            vector: normalized([...query].map((x) => x + 0.05 * gaussian(random))),
          },
    );
    const store = new SqliteStore(':memory:');
    await store.commit({ insert: memories });

    const sample = await new CalibrationSamples(store).sampleFor(TENANT);
    const sampleQuery = { stems: stemSet('the bicycle trip'), vector: query, bm25: new Map(), graph: null, lexicalWeight: 0.5 };
    const relevances = sampleRelevances(sample, sampleQuery);
    // The trip's memories in the sample clear active recall: the query resembles them, not the store.
    const tripIds = new Set(memories.slice(560).map(({ memory }) => memory.id));
    const trip = relevances.filter((_, k) => tripIds.has(sample.members[k]?.id ?? ''));
    expect(trip.length).toBeGreaterThan(0);
    expect(Math.min(...trip)).toBeGreaterThan(0.6);
    // Spread over the store they are under a tenth of the sample, so nothing is taken off; the
    // newest 256 would hold all 40 (16%) and put the 90th percentile among them.
    expect(trip.length).toBeLessThan(SAMPLE_SIZE / 10);
    expect(storeShift(relevances).shift).toBe(0);
    await store.close();
  });
});

function normalized(values: number[]): Float32Array {
  const length = Math.hypot(...values);
  return Float32Array.from(values, (value) => value / length);
}
