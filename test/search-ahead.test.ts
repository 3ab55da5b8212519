/**
 * What hybrid search does while the query is still being embedded, on a real SQLite store with
 * the real local model: the full-text hits and the memories about the query's entities are
 * read and measured by their words before the vector is in, with results the same as a search
 * that had the vector from the start.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { parseConfig } from '../src/config/load.js';
import { retrievalSettings } from '../src/engram/search-request.js';
import { type Engram, manualClock, type Memory, openEngram } from '../src/index.js';
import { type CalibrationSample, CalibrationSamples } from '../src/retrieval/calibration-sample.js';
import { hybridSearch, type HybridSearchRequest, type RetrievalSettings } from '../src/retrieval/hybrid-search.js';
import { wordQueryOf, wordSignalsFor } from '../src/retrieval/word-signals.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { sharedEmbedder } from './activation-helpers.js';

const NOW = new Date('2026-06-01T00:00:00.000Z');
const QUERY = 'What did Caroline decide about the billing database?';

describe('hybrid search ahead of the vector', () => {
  let engram: Engram;
  const store = new SqliteStore(':memory:');

  beforeAll(async () => {
    engram = await openEngram({ store, embedder: sharedEmbedder, clock: manualClock(NOW) });
    for (const text of [
      'Caroline chose PostgreSQL for the billing database because the team already runs it',
      'The billing database is backed up every night',
      'The cat sleeps on the sofa every afternoon',
      'Deploys happen on Thursdays now',
    ]) {
      await engram.remember({ text, kind: 'decision' });
    }
    // About Caroline through the graph only (she said it): no word of it matches the query.
    await engram.remember({ text: 'I went to a support group yesterday', data: { speaker: 'Caroline' } });
  });
  afterAll(() => engram.close());

  /** A search of QUERY whose vector comes when `vector` is resolved, measuring words with `measure`. */
  const searchWith = (
    queryVector: Promise<Float32Array> | Float32Array,
    measure = counting(),
    retrieval: RetrievalSettings = settings(),
  ) => ({
    measure,
    hits: hybridSearch({
      store,
      embedder: sharedEmbedder,
      filter: { tenant: 'default' },
      query: QUERY,
      limit: 10,
      mode: 'hybrid',
      scopes: undefined,
      now: NOW,
      minRelevance: 0,
      settings: retrieval,
      queryVector,
      wordSignals: measure,
    } satisfies HybridSearchRequest),
  });

  /** A word measure that records which memories it was asked for. */
  function counting() {
    const measure = wordSignalsFor(wordQueryOf(QUERY, { now: NOW, scopes: undefined, settings: settings().factors }));
    const asked: string[] = [];
    return Object.assign(
      (memory: Memory) => {
        asked.push(memory.text);
        return measure(memory);
      },
      { asked },
    );
  }
  const settings = () => retrievalSettings(parseConfig({}));

  it('measures the full-text hits and the memories about the named entity before the vector is in', async () => {
    const [vector] = await sharedEmbedder.embed([QUERY]);
    let answer = (_: Float32Array) => undefined as void;
    const pending = new Promise<Float32Array>((resolve) => (answer = resolve));

    const { measure, hits } = searchWith(pending);
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));

    // Two share the query's words; the third is about the entity the query names.
    expect(new Set(measure.asked)).toEqual(
      new Set([
        'Caroline chose PostgreSQL for the billing database because the team already runs it',
        'The billing database is backed up every night',
        'I went to a support group yesterday',
      ]),
    );
    answer(vector as Float32Array);
    const found = await hits;
    const { hits: direct } = searchWith(vector as Float32Array);
    // The same result, to the last signal, as with the vector known from the start.
    expect(found).toEqual(await direct);
    expect(found[0]?.memory.text).toMatch(/^Caroline chose PostgreSQL/);
  });

  it("scores the query's words and graph against the store's calibration sample before the vector is in", async () => {
    const [vector] = await sharedEmbedder.embed([QUERY]);
    const samples = new CalibrationSamples(store);
    const sample = await samples.sampleFor('default');
    let wordsRead = 0;
    // The same members, counting how often their words are read.
    const counted: CalibrationSample = {
      ...sample,
      members: sample.members.map((member) => ({
        ...member,
        get words() {
          wordsRead += 1;
          return member.words;
        },
      })),
    };
    const withSample = { ...settings(), samples };
    const sampleFor = vi.spyOn(samples, 'sampleFor').mockResolvedValue(counted);
    let answer = (_: Float32Array) => undefined as void;
    const pending = new Promise<Float32Array>((resolve) => (answer = resolve));

    const { hits } = searchWith(pending, counting(), withSample);
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));

    expect(wordsRead).toBe(sample.members.length);
    answer(vector as Float32Array);
    const found = await hits;
    expect(wordsRead).toBe(sample.members.length); // not again once the vector came
    sampleFor.mockRestore();
    const { hits: direct } = searchWith(vector as Float32Array, counting(), withSample);
    expect(found).toEqual(await direct);
    expect(found[0]?.storeShift).toEqual((await direct)[0]?.storeShift);
  });
});
