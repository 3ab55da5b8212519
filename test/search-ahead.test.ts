/**
 * What a search does while the query is still being embedded, on a real SQLite store with the
 * real local model: the full-text hits and the memories about the query's entities are read and
 * measured by their words, and the query is scored against the store's calibration sample, before
 * the vector is in — with hits and store shift the same as a search that had the vector from the
 * start. The vector comes when the test resolves it; nothing here depends on how many turns of
 * the event loop the search takes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { parseConfig } from '../src/config/load.js';
import type { Embedder } from '../src/embedding/embedder.js';
import { retrievalSettings } from '../src/engram/search-request.js';
import { type Engram, manualClock, type Memory, openEngram } from '../src/index.js';
import { type CalibrationSample, CalibrationSamples } from '../src/retrieval/calibration-sample.js';
import { hybridSearch, type RetrievalSettings, searchPrepared } from '../src/retrieval/hybrid-search.js';
import { type PreparedQuery, prepareQuery } from '../src/retrieval/prepare-query.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { sharedEmbedder } from './activation-helpers.js';
import { deferred } from './fixtures/search-store.js';

const NOW = new Date('2026-06-01T00:00:00.000Z');
const QUERY = 'What did Caroline decide about the billing database?';
const FILTER = { tenant: 'default' };

describe('hybrid search ahead of the vector', () => {
  let engram: Engram;
  let vector: Float32Array;
  const store = new SqliteStore(':memory:');
  const settings = (): RetrievalSettings => retrievalSettings(parseConfig({}));

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
    [vector] = (await sharedEmbedder.embed([QUERY])) as [Float32Array];
  });
  afterAll(() => engram.close());

  /** QUERY prepared with its vector to come (a promise) or known; its word measure records what it was asked for. */
  function prepared(queryVector: Promise<Float32Array> | Float32Array, retrieval = settings()) {
    const query = prepareQuery(store, {
      query: QUERY,
      mode: 'hybrid',
      settings: retrieval,
      embedder: sharedEmbedder,
      vector: queryVector,
      tenant: 'default',
      now: NOW,
      scopes: undefined,
    });
    const asked: string[] = [];
    const counted: PreparedQuery = {
      ...query,
      wordsOf: (memory: Memory) => {
        asked.push(memory.text);
        return query.wordsOf(memory);
      },
    };
    return { asked, search: () => searchPrepared({ store, query: counted, filter: FILTER, limit: 10, minRelevance: 0 }) };
  }

  it('measures the full-text hits and the memories about the named entity before the vector is in', async () => {
    const pending = deferred<Float32Array>();
    const late = prepared(pending.promise);
    const hits = late.search();

    // Two share the query's words; the third is about the entity the query names.
    await vi.waitFor(() =>
      expect(new Set(late.asked)).toEqual(
        new Set([
          'Caroline chose PostgreSQL for the billing database because the team already runs it',
          'The billing database is backed up every night',
          'I went to a support group yesterday',
        ]),
      ),
    );
    pending.resolve(vector);
    const found = await hits;
    // The same result, to the last signal, as with the vector known from the start.
    expect(found).toEqual(await prepared(vector).search());
    expect(found[0]?.memory.text).toMatch(/^Caroline chose PostgreSQL/);
  });

  it("scores the query's words and graph against the store's calibration sample before the vector is in", async () => {
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
    const sampleFor = vi.spyOn(samples, 'sampleFor').mockResolvedValue(counted);
    const withSample = { ...settings(), samples };
    const pending = deferred<Float32Array>();
    const hits = prepared(pending.promise, withSample).search();

    await vi.waitFor(() => expect(wordsRead).toBe(sample.members.length));
    pending.resolve(vector);
    const found = await hits;
    expect(wordsRead).toBe(sample.members.length); // not again once the vector came
    sampleFor.mockRestore();
    const direct = await prepared(vector, withSample).search();
    expect(found).toEqual(direct);
    expect(found[0]?.storeShift).toBe(direct[0]?.storeShift);
  });

  it('finds the same as a search that embeds the query itself', async () => {
    const embedding = deferred<Float32Array[]>();
    const embedder: Embedder = {
      id: sharedEmbedder.id,
      dimensions: sharedEmbedder.dimensions,
      embed: () => embedding.promise,
      readableShare: (text) => sharedEmbedder.readableShare?.(text) ?? 1,
    };
    const request = {
      store,
      filter: FILTER,
      query: QUERY,
      limit: 10,
      mode: 'hybrid',
      scopes: undefined,
      now: NOW,
      minRelevance: 0,
    } as const;
    const hits = hybridSearch({ ...request, embedder, settings: settings() });
    embedding.resolve([vector]);
    expect(await hits).toEqual(await prepared(vector).search());
  });
});
