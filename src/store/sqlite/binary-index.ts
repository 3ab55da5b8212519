/**
 * An in-memory approximate nearest-neighbour index over binary codes: one sign bit per vector
 * dimension (512 bits = 64 bytes for the local model). A query scans every code with a
 * Hamming distance — about 4 ms for 100k codes on one core — and the best few hundred
 * candidates are then re-scored exactly against the float vectors in SQLite. Measured on
 * clustered unit vectors, re-scoring 100 candidates keeps recall@10 against exact search
 * above 0.99, where the brute-force vec0 scan took ~60 ms at 100k.
 */

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

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

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
   * The rowids of the `k` codes nearest to `query` by Hamming distance (ties broken
   * arbitrarily). Large indexes are scanned in two passes: the first `PREFIX_WORDS` words of
   * every code pick a shortlist, which the whole code then ranks — a quarter of the work.
   */
  nearest(query: Uint32Array, k: number): number[] {
    if (this.count === 0 || k <= 0) return [];
    if (this.words <= PREFIX_WORDS || this.count <= k * SHORTLIST_FACTOR) {
      return pick(this.distances(null, query, this.words), null, k).map((i) => this.rowids[i] as number);
    }
    const shortlist = pick(this.prefixDistances(query), null, k * SHORTLIST_FACTOR);
    return pick(this.distances(shortlist, query, this.words), shortlist, k).map((i) => this.rowids[i] as number);
  }

  /**
   * The first pass's distances over every code, kept for the last query: one recall decision
   * asks the same query several times (a wide search, then one per tier).
   */
  private prefixDistances(query: Uint32Array): Uint16Array {
    const last = this.lastPrefix;
    if (last && last.count === this.count && last.query.every((word, i) => word === query[i])) return last.distances;
    const distances = this.distances(null, query, PREFIX_WORDS);
    this.lastPrefix = { query: query.slice(), count: this.count, distances };
    return distances;
  }

  /** Hamming distances to `query` over the first `words` words of the codes at `positions` (null: every code). */
  private distances(positions: readonly number[] | null, query: Uint32Array, words: number): Uint16Array {
    const { codes } = this;
    const stride = this.words;
    const size = positions ? positions.length : this.count;
    const distances = new Uint16Array(size);
    for (let p = 0; p < size; p++) {
      let distance = 0;
      const offset = (positions ? (positions[p] as number) : p) * stride;
      for (let w = 0; w < words; w++) distance += popcount((codes[offset + w] as number) ^ (query[w] as number));
      distances[p] = distance;
    }
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

function maxOf(values: Uint16Array): number {
  let max = 0;
  for (const value of values) if (value > max) max = value;
  return max;
}
