/**
 * An in-memory approximate nearest-neighbour index over binary codes: one sign bit per vector
 * dimension (512 bits = 64 bytes for the local model; 64 MiB for a million vectors, where an
 * int8 copy would take 512 MiB and float32 2 GiB). A query first compares a 128-bit prefix of
 * every code with the query's own code by Hamming distance, then ranks that shortlist by the
 * float query against the whole codes (asymmetric-score.ts); the best few hundred are then
 * re-scored exactly against the float vectors in SQLite (vector-table.ts).
 */

import { asymmetricScores, queryTables } from './asymmetric-score.js';

/** The sign bits of `vector`, packed 32 to a word (bit j of word w is dimension 32w + j). */
export function binaryCode(vector: Float32Array): Uint32Array {
  const code = new Uint32Array(Math.ceil(vector.length / 32));
  for (let i = 0; i < vector.length; i++) {
    if ((vector[i] as number) > 0) code[i >> 5] = (code[i >> 5] as number) | (1 << (i & 31));
  }
  return code;
}

/** Words of the code the first pass compares (128 of 512 bits). */
const PREFIX_WORDS = 4;
/** The first pass keeps this many candidates per result wanted. */
const SHORTLIST_FACTOR = 16;
/**
 * The first pass keeps at least this share of all codes: a 128-bit prefix is a coarse filter,
 * and in a larger index more near neighbours look alike to it.
 */
const SHORTLIST_SHARE = 1 / 32;

/** The codes of one tenant's vectors, with their rowids, in a growable flat array. */
export class BinaryIndex {
  readonly words: number;
  private rowids: Float64Array;
  private codes: Uint32Array;
  private count = 0;
  private lastPrefix: { query: Uint32Array; count: number; distances: Uint16Array } | null = null;

  constructor(words: number, capacity = 1024) {
    this.words = words;
    this.rowids = new Float64Array(capacity);
    this.codes = new Uint32Array(capacity * words);
  }

  get size(): number {
    return this.count;
  }

  add(rowid: number, code: Uint32Array): void {
    if (code.length !== this.words) throw new Error(`code of ${code.length} words in an index of ${this.words}`);
    if (this.count === this.rowids.length) this.grow();
    this.rowids[this.count] = rowid;
    this.codes.set(code, this.count * this.words);
    this.count++;
  }

  /**
   * The rowids of about the `k` codes nearest to the float `vector`: a Hamming pass over every
   * code's prefix picks a shortlist, which the float query then ranks against the whole codes
   * (asymmetric scores, which see the query's magnitudes that its sign bits lose).
   */
  nearestTo(vector: Float32Array, k: number): number[] {
    if (this.count === 0 || k <= 0) return [];
    if (this.count <= k) return Array.from(this.rowids.subarray(0, this.count));
    const wanted = Math.max(k * SHORTLIST_FACTOR, Math.ceil(this.count * SHORTLIST_SHARE));
    const shortlist =
      this.words <= PREFIX_WORDS || this.count <= wanted
        ? Array.from({ length: this.count }, (_, i) => i)
        : pick(this.prefixDistances(binaryCode(vector)), null, wanted);
    const scores = asymmetricScores(queryTables(vector, this.words), this.codes, this.words, shortlist);
    return pick(asDistances(scores), shortlist, k).map((i) => this.rowids[i] as number);
  }

  /**
   * The first pass's distances over every code, kept for the last query: one recall decision
   * asks the same query several times (a wide search, then one per tier).
   */
  private prefixDistances(query: Uint32Array): Uint16Array {
    const last = this.lastPrefix;
    if (last && last.count === this.count && last.query.every((word, i) => word === query[i])) return last.distances;
    const distances = prefixHamming(this.codes, this.words, this.count, query);
    this.lastPrefix = { query: query.slice(), count: this.count, distances };
    return distances;
  }

  private grow(): void {
    const rowids = new Float64Array(this.rowids.length * 2);
    rowids.set(this.rowids);
    const codes = new Uint32Array(rowids.length * this.words);
    codes.set(this.codes);
    this.rowids = rowids;
    this.codes = codes;
  }
}

/**
 * Hamming distances over the first four words of every code: the first pass, unrolled, with
 * the four words' bit counts summed per byte before one multiply adds the bytes up.
 */
function prefixHamming(codes: Uint32Array, stride: number, count: number, query: Uint32Array): Uint16Array {
  const q0 = query[0] as number;
  const q1 = query[1] as number;
  const q2 = query[2] as number;
  const q3 = query[3] as number;
  const distances = new Uint16Array(count);
  for (let p = 0, offset = 0; p < count; p++, offset += stride) {
    const bytes =
      byteCounts((codes[offset] as number) ^ q0) +
      byteCounts((codes[offset + 1] as number) ^ q1) +
      byteCounts((codes[offset + 2] as number) ^ q2) +
      byteCounts((codes[offset + 3] as number) ^ q3);
    distances[p] = Math.imul(bytes, 0x01010101) >>> 24;
  }
  return distances;
}

/** The bit count of each byte of `x`, in that byte (at most 8, so four words' sums still fit). */
function byteCounts(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (v + (v >>> 4)) & 0x0f0f0f0f;
}

/** The `k` entries with the smallest distances, as positions (mapped through `positions` when given). */
function pick(distances: Uint16Array, positions: readonly number[] | null, k: number): number[] {
  // Counting selection: the largest distance that still fits in the best k.
  const histogram = new Uint32Array(maxOf(distances) + 1);
  for (const distance of distances) histogram[distance] = (histogram[distance] as number) + 1;
  let cutoff = 0;
  let taken = 0;
  while (cutoff < histogram.length && taken + (histogram[cutoff] as number) < k) taken += histogram[cutoff++] as number;
  const out: number[] = [];
  const atCutoff: number[] = [];
  const at = (p: number) => (positions ? (positions[p] as number) : p);
  for (let p = 0; p < distances.length; p++) {
    const distance = distances[p] as number;
    if (distance < cutoff) out.push(at(p));
    else if (distance === cutoff && atCutoff.length < k - taken) atCutoff.push(at(p));
  }
  return out.concat(atCutoff);
}

/**
 * Scores (larger is nearer) as distances `pick` can select from: 0 for the best, 65535 for the
 * worst, linear between. The rounding is 1/65535 of the spread, far below what separates
 * the candidates worth keeping.
 */
function asDistances(scores: Float32Array): Uint16Array {
  let best = -Infinity;
  let worst = Infinity;
  for (const score of scores) {
    if (score > best) best = score;
    if (score < worst) worst = score;
  }
  const distances = new Uint16Array(scores.length);
  const step = best > worst ? 65535 / (best - worst) : 0;
  for (let i = 0; i < scores.length; i++) distances[i] = Math.round((best - (scores[i] as number)) * step);
  return distances;
}

function maxOf(values: Uint16Array): number {
  let max = 0;
  for (const value of values) if (value > max) max = value;
  return max;
}
