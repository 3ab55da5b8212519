import { describe, expect, it } from 'vitest';

import { searchSettings } from '../../test/fixtures/search-settings.js';
import { searchWorld, WORLD_QUERY, WORLD_VECTOR } from '../../test/fixtures/search-store.js';
import { normalize } from '../embedding/embedder.js';
import type { LexicalHit } from '../store/lexical-search.js';
import { bm25Of, calibrateSearch } from './calibrate-search.js';
import type { CalibrationSample, SampleMember } from './calibration-sample.js';
import { stemSet } from './coverage.js';
import { prepareQuery, withStoreShift } from './prepare-query.js';
import { NO_SHIFT, sampleShift } from './store-calibration.js';

const NOW = new Date('2025-02-01T00:00:00.000Z');
const LEXICAL: LexicalHit[] = [
  { id: 'm0', score: 6 },
  { id: 'm1', score: 3 },
];

/** 200 members, a third sharing the query's words, all leaning towards its vector; `read` counts reads of their words. */
function countedSample(): { sample: CalibrationSample; reads: () => number } {
  let reads = 0;
  const members = Array.from({ length: 200 }, (_, i): SampleMember => {
    const words = stemSet(i % 3 === 0 ? 'Caroline chose the billing database' : `note number ${i} about the garden`);
    return {
      id: `m${i}`,
      updatedAt: NOW.toISOString(),
      vector: normalize(Float32Array.of(0.8, 0.4 + (i % 7) / 10, (i % 5) / 10, 0.1)),
      get words() {
        reads += 1;
        return words;
      },
      withContext: null,
      mentions: [],
    };
  });
  return { sample: { members }, reads: () => reads };
}

/** The world's query, on `sample`'s calibration. */
function preparedWith(sample: CalibrationSample | null) {
  const query = prepareQuery(searchWorld(), {
    query: WORLD_QUERY,
    mode: 'hybrid',
    settings: searchSettings({ graph: false }),
    embedder: null,
    tenant: 'acme',
    now: NOW,
    scopes: undefined,
  });
  return { ...query, calibration: { kind: 'sample', sample: sample && Promise.resolve(sample) } as const };
}

describe('calibrating a search on the store', () => {
  it("scores the query's words against the sample before the vector, and not again after", async () => {
    const { sample, reads } = countedSample();
    const query = preparedWith(sample);
    const calibration = calibrateSearch(query);

    await calibration.ahead(Promise.resolve(LEXICAL)); // no vector anywhere yet
    expect(reads()).toBe(sample.members.length);

    const shift = await calibration.shift({ queryVector: WORLD_VECTOR, bm25: bm25Of(LEXICAL), graph: null });
    expect(reads()).toBe(sample.members.length);
    // The same shift, to the bit, as the sample scored whole once the vector is in.
    const { lexicalWeight } = query.settings;
    const whole = sampleShift(sample, {
      stems: query.words.stems,
      vector: WORLD_VECTOR,
      readable: 1,
      bm25: bm25Of(LEXICAL),
      graph: null,
      lexicalWeight,
    });
    expect(shift).toEqual(whole);
    expect(shift.shift).toBeGreaterThan(0);
  });

  it('measures the whole shift after the vector when nothing was scored ahead', async () => {
    const { sample } = countedSample();
    const query = preparedWith(sample);
    const ahead = calibrateSearch(query);
    await ahead.ahead(LEXICAL);
    const gathered = { queryVector: WORLD_VECTOR, bm25: bm25Of(LEXICAL), graph: null };
    expect(await calibrateSearch(query).shift(gathered)).toEqual(await ahead.shift(gathered));
  });

  it('takes nothing off without a sample or without the vector', async () => {
    const none = calibrateSearch(preparedWith(null));
    expect(none.ahead(LEXICAL)).toBeNull();
    expect(await none.shift({ queryVector: WORLD_VECTOR, bm25: new Map(), graph: null })).toEqual(NO_SHIFT);

    const { sample } = countedSample();
    const noVector = calibrateSearch(preparedWith(sample));
    expect(await noVector.shift({ queryVector: null, bm25: new Map(), graph: null })).toEqual(NO_SHIFT);
  });

  it('stands on a known shift without reading the sample', async () => {
    const { sample, reads } = countedSample();
    const query = withStoreShift(preparedWith(sample), 0.04);
    const calibration = calibrateSearch(query);
    expect(calibration.ahead(LEXICAL)).toBeNull();
    expect(await calibration.shift({ queryVector: WORLD_VECTOR, bm25: new Map(), graph: null })).toEqual({
      ...NO_SHIFT,
      shift: 0.04,
    });
    expect(reads()).toBe(0);
  });
});
