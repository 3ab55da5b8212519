import { describe, expect, it } from 'vitest';

import type { Entity } from '../model/graph.js';
import { calibrate, hybridRawScore } from './calibration.js';
import type { CalibrationSample, SampleMember } from './calibration-sample.js';
import { coverage } from './coverage.js';
import { partOf, type QueryGraph } from './graph-recall.js';
import { SampleVectors } from './sample-dots.js';
import {
  ALPHA,
  percentileOf,
  REFERENCE,
  type SampleQuery,
  sampleRelevances,
  sampleShift,
  sampleWordScores,
  shiftRelevance,
  storeShift,
  YOUNG_STORE,
  youngStoreWeight,
} from './store-calibration.js';

describe('the young-store ramp', () => {
  it.each([
    [0, 0],
    [YOUNG_STORE.from, 0],
    [(YOUNG_STORE.from + YOUNG_STORE.full) / 2, 0.5],
    [YOUNG_STORE.full, 1],
    [100_000, 1],
  ])('gives a sample of %d memories the weight %d', (sampled, weight) => {
    expect(youngStoreWeight(sampled)).toBeCloseTo(weight, 10);
  });
});

describe('the shift of one query', () => {
  /** `size` relevances whose top tenth is `top` and the rest 0.2: the 90th percentile is `top`. */
  const spread = (top: number, size = 300) => Array.from({ length: size }, (_, i) => (i >= Math.floor(0.9 * size) ? top : 0.2));

  it('reads the 90th percentile of the sample', () => {
    expect(percentileOf(spread(0.7), 0.9)).toBe(0.7);
    expect(percentileOf(spread(0.7), 0.5)).toBe(0.2);
    expect(percentileOf([], 0.9)).toBeNull();
  });

  it('takes nothing off when the percentile is at or below the reference', () => {
    expect(storeShift(spread(REFERENCE)).shift).toBe(0);
  });

  it('takes alpha times the excess off on a grown store, and half of it halfway up the ramp', () => {
    expect(storeShift(spread(0.7)).shift).toBeCloseTo(ALPHA * (0.7 - REFERENCE), 10);
    expect(storeShift(spread(0.7, (YOUNG_STORE.from + YOUNG_STORE.full) / 2)).shift).toBeCloseTo(
      (ALPHA * (0.7 - REFERENCE)) / 2,
      10,
    );
  });

  it('leaves a young store on the fixed curve', () => {
    expect(storeShift(spread(0.9, YOUNG_STORE.from)).shift).toBe(0);
  });

  it('takes exactly the shift off a relevance at active recall threshold: what needed 0.6 + shift still reaches 0.6', () => {
    expect(shiftRelevance(0.6 + 0.15, 0.15)).toBeCloseTo(0.6, 10);
    expect(shiftRelevance(0.6, 0)).toBe(0.6);
  });

  it('scales every relevance of a search by one factor: no reordering, no zero, no ties', () => {
    const relevances = [0.05, 0.1, 0.3, 0.55, 0.6, 0.9, 1];
    const shifted = relevances.map((relevance) => shiftRelevance(relevance, 0.3));
    const ratios = shifted.map((value, i) => value / (relevances[i] as number));
    for (const ratio of ratios) expect(ratio).toBeCloseTo(ratios[0] as number, 12);
    expect(Math.min(...shifted)).toBeGreaterThan(0);
    expect(new Set(shifted).size).toBe(relevances.length);
  });
});

describe('the shift measured on a sample', () => {
  /** A small deterministic generator (a linear congruential one), so each case is the same on every run. */
  const generator = (seed: number) => {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
  };
  const WORDS = ['garden', 'bicycl', 'concert', 'kitchen', 'letter', 'hike', 'song', 'market'];
  const DIMS = 16;

  /** `size` members with words, most with vectors, some with context and mentions; `ties` makes many score alike. */
  function sampleOf(size: number, seed: number, options: { ties?: boolean; nan?: boolean } = {}): CalibrationSample {
    const random = generator(seed);
    const members = Array.from({ length: size }, (_, i): SampleMember => {
      const words = new Set(WORDS.filter(() => random() < 0.3));
      const vector =
        options.ties && i % 2 === 0
          ? new Float32Array(DIMS).fill(0.25)
          : Float32Array.from({ length: DIMS }, () => random() - 0.3);
      if (options.nan && i === 3) vector[0] = Number.NaN;
      return {
        id: `m${i}`,
        updatedAt: '2026-01-01T00:00:00.000Z',
        vector: random() < 0.1 ? null : vector,
        words,
        withContext: random() < 0.2 ? new Set([...words, 'station']) : null,
        mentions:
          random() < 0.3
            ? [{ entityId: random() < 0.5 ? 'e-alice' : 'e-bob', role: random() < 0.5 ? 'speaker' : 'mention' }]
            : [],
      };
    });
    return { members };
  }

  const alice = { id: 'e-alice', name: 'Alice', type: 'person' } as Entity;
  const graph: QueryGraph = {
    named: new Map([['e-alice', alice]]),
    hops: new Map(),
    asksWhen: false,
    asksWhere: false,
    days: null,
  };
  const query = (seed: number, withGraph: boolean): SampleQuery => {
    const random = generator(seed);
    return {
      stems: new Set(['garden', 'bicycl', 'station']),
      vector: Float32Array.from({ length: DIMS }, () => random() - 0.2),
      bm25: new Map([
        ['m1', 3.5],
        ['m7', 0.8],
      ]),
      graph: withGraph ? graph : null,
      lexicalWeight: 0.55,
    };
  };

  it.each([
    ['an empty store', 0, {}],
    ['a young store', 30, {}],
    ['a store halfway up the ramp', 120, {}],
    ['a full sample', 256, {}],
    ['a full sample where many members score alike', 256, { ties: true }],
    ['a sample with a member whose vector holds NaN', 256, { nan: true }],
  ] as const)('is the shift of the relevances of every member, on %s', (_, size, options) => {
    for (const seed of [1, 2, 3]) {
      for (const withGraph of [false, true]) {
        const sample = sampleOf(size, seed, options);
        const q = query(seed + 10, withGraph);
        expect(sampleShift(sample, q)).toEqual(storeShift(sampleRelevances(sample, q)));
      }
    }
  });

  /** The same sample with its members' vectors held together for scoring at once, as the engine reads it. */
  function withVectors(sample: CalibrationSample): CalibrationSample {
    const vectors = new SampleVectors(DIMS, sample.members.length);
    const members = sample.members.map((member, index) => {
      if (member.vector === null) return member;
      const slot = vectors.vectors.subarray(index * DIMS, (index + 1) * DIMS);
      slot.set(member.vector);
      return { ...member, vector: slot };
    });
    return { members, vectors };
  }

  it('scores every member alike whether its vectors are held together or not', () => {
    for (const seed of [1, 2]) {
      const sample = sampleOf(256, seed, { nan: true });
      for (const q of [query(seed, true), { ...query(seed, false), vector: query(seed, false).vector.subarray(0, 11) }]) {
        expect(sampleRelevances(withVectors(sample), q)).toEqual(sampleRelevances(sample, q));
        expect(sampleShift(withVectors(sample), q)).toEqual(sampleShift(sample, q));
      }
    }
  });

  it('shifts a query that resembles much of the store', () => {
    const sample = sampleOf(256, 4, { ties: true });
    expect(sampleShift(sample, query(5, true)).shift).toBeGreaterThan(0);
  });

  it('scores each member as search scores a candidate: the hybrid raw score and the graph\'s "about" boost', () => {
    const sample = sampleOf(64, 6, { nan: true });
    const q = query(7, true);
    const norm = Math.sqrt(q.vector.reduce((sum, x) => sum + x * x, 0));
    const expected = sample.members.map((member) => {
      const alone = coverage(q.stems, member.words);
      const signals = {
        coverage: member.withContext === null ? alone : (alone + coverage(q.stems, member.withContext)) / 2,
        bm25: q.bm25.get(member.id) ?? null,
        cosine: member.vector ? member.vector.reduce((sum, x, i) => sum + x * (q.vector[i] as number), 0) / norm : null,
      };
      return calibrate(hybridRawScore(signals, true, q.lexicalWeight) + partOf(graph, member.mentions, new Map()).boost);
    });
    const relevances = sampleRelevances(sample, q);
    relevances.forEach((relevance, i) => expect(relevance).toBeCloseTo(expected[i] as number, 12));
  });

  it("counts each member's cosine only as far as the embedder reads the query, as search does", () => {
    const sample = sampleOf(64, 8, { nan: true });
    const q = query(9, true);
    const norm = Math.sqrt(q.vector.reduce((sum, x) => sum + x * x, 0));
    for (const readable of [0, 0.25, 1]) {
      const expected = sample.members.map((member) => {
        const alone = coverage(q.stems, member.words);
        const cosine = member.vector ? member.vector.reduce((sum, x, i) => sum + x * (q.vector[i] as number), 0) / norm : null;
        const signals = {
          coverage: member.withContext === null ? alone : (alone + coverage(q.stems, member.withContext)) / 2,
          bm25: q.bm25.get(member.id) ?? null,
          cosine: cosine === null ? null : cosine * readable,
        };
        return calibrate(hybridRawScore(signals, true, q.lexicalWeight) + partOf(graph, member.mentions, new Map()).boost);
      });
      const relevances = sampleRelevances(withVectors(sample), { ...q, readable });
      relevances.forEach((relevance, i) => expect(relevance, `${readable}`).toBeCloseTo(expected[i] as number, 12));
    }
  });

  it('shifts a query the embedder cannot read by its words alone', () => {
    const sample = sampleOf(256, 4, { ties: true });
    const unread = { ...query(5, false), readable: 0 };
    expect(sampleShift(sample, query(5, false)).shift).toBeGreaterThan(0);
    expect(sampleShift(sample, unread)).toEqual(sampleShift(sample, { ...unread, vector: new Float32Array(DIMS), readable: 1 }));
  });

  it('gives the same shift from word scores measured before the vector, and ignores those of another sample', () => {
    for (const seed of [1, 2, 3]) {
      const sample = sampleOf(256, seed, { nan: true });
      const q = query(seed + 20, true);
      const measured = sampleWordScores(sample, q);
      expect(sampleShift(sample, q, measured)).toEqual(sampleShift(sample, q));
      const other = sampleWordScores(sampleOf(256, seed + 1), q);
      expect(sampleShift(sample, q, other)).toEqual(sampleShift(sample, q));
      // Used when they are this sample's: scores of other words give those words' shift.
      const otherWords = { ...q, stems: new Set(['kitchen', 'song', 'market']) };
      expect(sampleShift(sample, q, sampleWordScores(sample, otherWords))).toEqual(sampleShift(sample, otherWords));
      expect(sampleShift(sample, otherWords)).not.toEqual(sampleShift(sample, q));
    }
  });
});
