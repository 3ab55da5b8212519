/**
 * Per-store calibration: the correction that makes relevance mean the same on every store. The
 * fixed curve of calibration.ts was fitted on one corpus; on another, unrelated memories score
 * higher (LongMemEval's assistant chats put 2.8% of unrelated pairs at 0.5 against LoCoMo's 0.7%).
 * A query that scores high against much of the store is scoring high against memories that
 * cannot all be about it, so each search scores the query against a sample spread evenly over
 * the store, old and new alike (calibration-sample.ts), and reads the 90th percentile of those
 * relevances: when it is above REFERENCE, the shift is ALPHA × the excess, and relevance is
 * scaled so that a memory at active recall's 0.6 loses exactly that much (shiftRelevance) — one
 * factor per query, so the order of the hits never changes, only where they stand against the
 * thresholds.
 *
 * REFERENCE 0.4 and ALPHA 0.5 were chosen in a replay on the LoCoMo and LongMemEval development
 * slices (the percentile over every memory of each store, which an even sample estimates);
 * `engram bench locomo` and `bench longmemeval` measure the mechanism as built. A member of the
 * sample is scored as search scores a candidate — coverage, cosine, BM25 when the full-text
 * search returned it, and the graph's "about" path — leaving out the graph's sparse paths (one
 * hop, dates, session neighbours). Pure: no I/O.
 */
import { calibrate, CALIBRATION_CURVE, withCosine, wordSignal } from './calibration.js';
import { type CalibrationSample, SAMPLE_SIZE, type SampleMember } from './calibration-sample.js';
import { coverage } from './coverage.js';
import { FUSED_SPREAD, LEVEL_LIFT } from './fused-relevance.js';
import { partOf, type QueryGraph } from './graph-recall.js';

/** The share of the sample below the percentile read. */
export const SAMPLE_PERCENTILE = 0.9;
/** Percentile above which relevance is lowered. */
export const REFERENCE = 0.4;
/** How much of the excess over REFERENCE is taken off relevance. */
export const ALPHA = 0.5;

/**
 * A young store keeps the fixed curve: below `from` memories in the sample (all of the store's
 * live memories while it has fewer than the sample holds) the correction has no weight, from
 * `full` on all of it, linearly between. The 90th percentile of fewer than 50 relevances
 * rests on the best five memories — mostly the query's own answers — and a small store has few
 * unrelated memories to let through anyway.
 */
export const YOUNG_STORE = { from: 50, full: 200 } as const;

/** What the store's calibration did to one query, for hits and receipts. */
export interface StoreShift {
  /** The shift: what a relevance of 0.6 loses (shiftRelevance), before the cooldown; 0 when nothing is taken off. */
  shift: number;
  /** The 90th percentile of the query's relevance over the sample; null without a sample. */
  percentile: number | null;
  /** Memories in the sample. */
  sampled: number;
  /** The correction's weight from the store's size, in [0, 1] (see YOUNG_STORE). */
  weight: number;
}

/** No correction: another mode, no vectors, or no sample. */
export const NO_SHIFT: StoreShift = { shift: 0, percentile: null, sampled: 0, weight: 0 };

/** The correction's weight for a sample of `sampled` memories. */
export function youngStoreWeight(sampled: number): number {
  return Math.min(1, Math.max(0, (sampled - YOUNG_STORE.from) / (YOUNG_STORE.full - YOUNG_STORE.from)));
}

/** The `p` quantile of `values` (the value below which a share `p` lies), or null when empty. */
export function percentileOf(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}

/** The shift for a query whose relevances over the sample are `relevances`. */
export function storeShift(relevances: readonly number[]): StoreShift {
  const percentile = percentileOf(relevances, SAMPLE_PERCENTILE);
  if (percentile === null) return NO_SHIFT;
  return shiftAt(percentile, relevances.length);
}

/** The shift for a query whose percentile over a sample of `sampled` memories is `percentile`. */
function shiftAt(percentile: number, sampled: number): StoreShift {
  const weight = youngStoreWeight(sampled);
  return { shift: weight * ALPHA * Math.max(0, percentile - REFERENCE), percentile, sampled, weight };
}

/**
 * The relevance at which the shift takes off exactly its amount: active recall's threshold, so a
 * memory that needed `0.6 + shift` to be injected before still does.
 */
export const SHIFT_PIVOT = 0.6;

/**
 * Calibrated relevance with the store's shift taken off: `relevance × 0.6 / (0.6 + shift)`. One
 * factor per search, so it never reorders hits, never reaches 0 and never ties two of them; at
 * 0.6 it takes off exactly `shift` (see SHIFT_PIVOT), a little less below, a little more above.
 */
export function shiftRelevance(relevance: number, shift: number): number {
  if (!(shift > 0)) return relevance; // no correction: the curve's value to the bit
  return (relevance * SHIFT_PIVOT) / (SHIFT_PIVOT + shift);
}

/** What a query brings to the sample: its words, vector, full-text scores and graph. */
export interface SampleQuery extends SampleWordQuery {
  vector: Float32Array;
  /**
   * The share of the query the embedder reads: its cosines count this far, as a search counts
   * them (readable-share.ts). @default 1
   */
  readable?: number | undefined;
}

/** The part of a query that needs no vector: its words, full-text scores and graph. */
export interface SampleWordQuery {
  stems: ReadonlySet<string>;
  /** BM25 of the memories the full-text search returned, by id. */
  bm25: ReadonlyMap<string, number>;
  graph: QueryGraph | null;
  lexicalWeight: number;
}

/**
 * What a query scores against each member of a sample before its vector is known: the word
 * part of the raw score (weighted) and the graph's "about" boost. A search measures it while the
 * query is embedded, so only the cosines are left for after.
 */
export interface SampleWordScores {
  /** The members measured: scores for another sample (a refreshed one) are not used. */
  members: CalibrationSample['members'];
  words: Float64Array;
  graph: Float64Array;
}

/** The query's calibrated relevance to each member of the sample. */
export function sampleRelevances(sample: CalibrationSample, query: SampleQuery): number[] {
  return Array.from(sampleRawScores(sample, query), calibrate);
}

/**
 * The store's shift for `query`: `storeShift(sampleRelevances(sample, query))`, found with one
 * calibration instead of one per member. The curve never decreases, so the member at the
 * percentile's place in the order of raw scores is the one there in the order of relevances, and
 * its relevance is the percentile (a NaN score, which calibrates to 1, sorts last either way).
 * `measured`: the query's `sampleWordScores` over this sample, when measured ahead.
 */
export function sampleShift(sample: CalibrationSample, query: SampleQuery, measured?: SampleWordScores | null): StoreShift {
  const raws = sampleRawScores(sample, query, measured).sort();
  if (raws.length === 0) return NO_SHIFT;
  const place = Math.min(raws.length - 1, Math.floor(SAMPLE_PERCENTILE * raws.length));
  return shiftAt(calibrate(raws[place] as number), raws.length);
}

/** The word part of the query's raw score against each member of the sample, and the graph's boost. */
export function sampleWordScores(sample: CalibrationSample, query: SampleWordQuery): SampleWordScores {
  const noEntities = new Map();
  const words = new Float64Array(sample.members.length);
  const graph = new Float64Array(sample.members.length);
  sample.members.forEach((member, index) => {
    const signals = { coverage: memberCoverage(query.stems, member), bm25: query.bm25.get(member.id) ?? null };
    words[index] = query.lexicalWeight * wordSignal(signals);
    // Only the "about" path: hops and dates need entity records, and are rare.
    graph[index] = query.graph ? partOf(query.graph, member.mentions, noEntities).boost : 0;
  });
  return { members: sample.members, words, graph };
}

/** The query's raw hybrid score (the graph's "about" part added) against each member of the sample. */
function sampleRawScores(sample: CalibrationSample, query: SampleQuery, measured?: SampleWordScores | null): Float64Array {
  const { words, graph } = measured?.members === sample.members ? measured : sampleWordScores(sample, query);
  let norm = 0;
  for (let i = 0; i < query.vector.length; i++) norm += (query.vector[i] as number) ** 2;
  norm = Math.sqrt(norm) || 1;
  // The cosine counted as far as the embedder reads the query, as search counts it (readable-share.ts).
  const readable = query.readable ?? 1;
  const raws = new Float64Array(sample.members.length);
  // All at once when the sample holds its vectors together (sample-dots.ts): the same doubles as `dot`.
  const dots = sample.vectors?.dots(query.vector);
  sample.members.forEach((member, index) => {
    const cosine = member.vector ? ((dots ? (dots[index] as number) : dot(query.vector, member.vector)) / norm) * readable : null;
    raws[index] = withCosine(words[index] as number, cosine, query.lexicalWeight) + (graph[index] as number);
  });
  return raws;
}

function memberCoverage(query: ReadonlySet<string>, member: SampleMember): number {
  const alone = coverage(query, member.words);
  return member.withContext === null ? alone : (alone + coverage(query, member.withContext)) / 2;
}

function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  // Four running sums: the loop is most of a search's cost here.
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += (a[i] as number) * (b[i] as number);
    s1 += (a[i + 1] as number) * (b[i + 1] as number);
    s2 += (a[i + 2] as number) * (b[i + 2] as number);
    s3 += (a[i + 3] as number) * (b[i + 3] as number);
  }
  for (; i < n; i++) s0 += (a[i] as number) * (b[i] as number);
  return s0 + s1 + s2 + s3;
}

/** How relevance is calibrated on one store, for `engram stats`. */
export interface StoreCalibrationInfo {
  /** Whether searches apply the store's shift: hybrid search needs vectors to score the sample. */
  active: boolean;
  /** Memories in the sample: SAMPLE_SIZE spread over the store, or all of a smaller store. */
  sampled: number;
  sampleSize: number;
  /** The shift's weight from the sample's size; below 1 the store is young (see YOUNG_STORE). */
  weight: number;
  young: boolean;
  youngStore: { from: number; full: number };
  percentile: number;
  reference: number;
  alpha: number;
  /** Relevance is scaled by `pivot / (pivot + shift)`: a relevance of `pivot` loses exactly the shift. */
  pivot: number;
  /** The fixed curve's (raw score, relevance) points. */
  curve: readonly (readonly [number, number])[];
  /** In a search the graph ranks, relevance falls to 1/e of the search's level this many fused points below the best hit (fused-relevance.ts). */
  fusedSpread: number;
  /** In a search the graph ranks, a level above 0.6 is lifted toward 1 with this power (fused-relevance.ts). */
  fusedLift: number;
}

/** The calibration of a store whose sample is `sample`. */
export function describeStoreCalibration(sample: CalibrationSample, hasVectors: boolean): StoreCalibrationInfo {
  const weight = youngStoreWeight(sample.members.length);
  return {
    active: hasVectors,
    sampled: sample.members.length,
    sampleSize: SAMPLE_SIZE,
    weight,
    young: weight < 1,
    youngStore: { ...YOUNG_STORE },
    percentile: SAMPLE_PERCENTILE,
    reference: REFERENCE,
    alpha: ALPHA,
    pivot: SHIFT_PIVOT,
    curve: CALIBRATION_CURVE,
    fusedSpread: FUSED_SPREAD,
    fusedLift: LEVEL_LIFT,
  };
}
