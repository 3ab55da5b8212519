/**
 * An in-memory approximate nearest-neighbour index over compressed copies of each vector: the
 * first 128 of its sign bits (its stored code's prefix), its signed bytes (int8-vector.ts, 512
 * bytes for the local model's 512 dimensions) and a binary code read from those bytes (one bit
 * per dimension, set where the byte is positive: 64 bytes; the sign bits but where a component
 * rounds to the byte 0, under 1/254 of the largest, whose sign says nothing of its direction).
 * A query passes three stages, each cheaper per entry than the next and narrower:
 * 1. every vector's prefix against the query's, by Hamming distance (in WebAssembly SIMD,
 *    vector-kernels.wat: one 16-byte XOR and bit count a vector);
 * 2. that shortlist by the float query against the whole codes (asymmetric-score.ts), which
 *    sees the query's magnitudes that its sign bits lose;
 * 3. the best of those by the query's bytes against theirs (SIMD too), nearly the float
 *    cosine order.
 * The caller re-scores the first few exactly against the float vectors (each backend's vector table, e.g. ../sqlite/vector-table.ts).
 * Only the first stage reads every vector, so an index can be opened from the prefixes alone
 * (`fromPrefixes`, ../sqlite/vector-index-open.ts) and read each signed-bytes entry as a search
 * first needs it; once searches have read an eighth of them so, it reads the rest in one pass
 * (why: docs/decisions/time-to-first-answer.md). Whole, it holds about 60 MB at 100k vectors of
 * 512 dimensions, about 600 MB at a million.
 */

import type { AdmittedSet } from './admitted-set.js';
import { asymmetricScores, queryTables } from './asymmetric-score.js';
import { FACTOR_BYTES, isInt8Entry, readFactor, writeInt8Entry } from './int8-entry.js';
import { writeInt8 } from './int8-vector.js';
import { allPositions, positionsOfSmallest, scoresAsDistances, smallestPositions, WORST_DISTANCE } from './smallest.js';
import { KernelMemory } from './vector-kernels.js';

/**
 * The sign bits of `vector`, packed 32 to a word (bit j of word w is dimension 32w + j): what the
 * vector tables store beside each vector. The index reads its codes from the signed bytes instead.
 */
export function binaryCode(vector: Float32Array): Uint32Array {
  const code = new Uint32Array(Math.ceil(vector.length / 32));
  for (let i = 0; i < vector.length; i++) {
    if ((vector[i] as number) > 0) code[i >> 5] = (code[i >> 5] as number) | (1 << (i & 31));
  }
  return code;
}

/** Words of the code the first stage compares (128 of 512 bits). */
const PREFIX_WORDS = 4;

/** Bytes of the prefix the first stage compares for vectors of `dimensions`: the first 16 of the code, or all of a shorter one. */
export function prefixBytes(dimensions: number): number {
  return Math.min(PREFIX_WORDS, Math.ceil(dimensions / 32)) * 4;
}

/**
 * Reads the stored entries (int8-entry.ts) of these rowids, end to end in their order; a rowid
 * with no usable vector has zeros there and its index in `unusable`.
 */
export type EntryReader = (rowids: ArrayLike<number>) => { entries: Uint8Array; unusable: readonly number[] };

/**
 * An index opened from its prefixes reads the rest of every entry in one pass once searches have
 * read this share of them one by one: a search's scattered reads cost about eight times as much
 * an entry as one pass does (docs/decisions/time-to-first-answer.md).
 */
const ONE_BY_ONE_SHARE = 1 / 8;
/** Entries read from the reader per call when reading them all. */
const PASS_CHUNK = 4_096;
/** The first stage keeps this many codes per candidate the second stage returns. */
const SHORTLIST_FACTOR = 4;
/**
 * The first stage keeps at least this share of all codes: a 128-bit prefix is a coarse filter,
 * and in a larger index more near neighbours look alike to it.
 */
const SHORTLIST_SHARE = 1 / 32;

/** The distance the first stage gives a code the filter refuses: past any real one (at most 128). */
const REFUSED = 255;
/** Rowids the index holds (32-bit, as its kernels read them). */
const MAX_ROWID = 0x7fffffff;

/** One query's ranking, kept: a recall decision asks the same query several times. */
interface LastRanking {
  vector: Float32Array;
  count: number;
  k: number;
  admitted: AdmittedSet | undefined;
  admittedVersion: number;
  rowids: number[];
}

/** The compressed vectors of one tenant, with their rowids, in growable flat arrays. */
export class QuantizedIndex {
  readonly dimensions: number;
  private readonly words: number;
  private codes: Uint32Array;
  /** The first stage's words of every code side by side, and the signed bytes, for the kernels. */
  private readonly kernels: KernelMemory;
  private scales: Float32Array;
  private count = 0;
  private last: LastRanking | null = null;
  /** A byte view of the signed bytes, for copying stored entries in (`byteView`). */
  private unsigned: Uint8Array | null = null;
  /** The widest ranking of the last query vector (the one over the most admitted rowids). */
  private widest: (Pick<LastRanking, 'vector' | 'count' | 'k' | 'rowids'> & { population: number }) | null = null;
  /** Where the entries not read yet come from; null once every entry is held. */
  private reader: EntryReader | null = null;
  /** 1 at each position whose entry is held, while the reader is set. */
  private held: Uint8Array | null = null;
  /** 1 at each position whose vector is unusable (read as such), left out of every ranking; null while none is. */
  private unusable: Uint8Array | null = null;
  private readOneByOne = 0;

  constructor(dimensions: number, capacity = 1024) {
    this.dimensions = dimensions;
    this.words = Math.ceil(dimensions / 32);
    this.codes = new Uint32Array(capacity * this.words);
    this.kernels = new KernelMemory(dimensions, capacity);
    this.scales = new Float32Array(capacity);
  }

  /**
   * An index of these rowids holding only their prefixes (`prefixBytes` each, end to end in
   * `prefixes`), with room for `room` more; `reader` reads their entries as searches need them.
   */
  static fromPrefixes(
    dimensions: number,
    rowids: ArrayLike<number>,
    prefixes: Uint8Array,
    reader: EntryReader,
    room: number,
  ): QuantizedIndex {
    const bytes = prefixBytes(dimensions);
    if (prefixes.byteLength !== rowids.length * bytes) {
      throw new Error(`${prefixes.byteLength} bytes of prefixes for ${rowids.length} vectors of ${dimensions} dimensions`);
    }
    const index = new QuantizedIndex(dimensions, rowids.length + room);
    index.reader = reader;
    index.held = new Uint8Array(index.kernels.capacity);
    for (let r = 0; r < rowids.length; r++) index.place(rowids[r] as number);
    // The stored codes are the words' bytes in the machine's order, as the kernels read them.
    const { prefixes: words } = index.kernels;
    const into = new Uint8Array(words.buffer, words.byteOffset, rowids.length * PREFIX_WORDS * 4);
    if (bytes === PREFIX_WORDS * 4) into.set(prefixes);
    else for (let r = 0; r < rowids.length; r++) into.set(prefixes.subarray(r * bytes, (r + 1) * bytes), r * PREFIX_WORDS * 4);
    return index;
  }

  get size(): number {
    return this.count;
  }

  /** Whether every entry is held (else some are read as searches need them). */
  get whole(): boolean {
    return this.reader === null;
  }

  /** Adds `vector`: its signed bytes and factor, the code read from those bytes, and its sign bits' prefix. */
  add(rowid: number, vector: Float32Array): void {
    if (vector.length !== this.dimensions) {
      throw new Error(`vector of ${vector.length} dimensions in an index of ${this.dimensions}`);
    }
    const position = this.place(rowid);
    this.scales[position] = writeInt8Entry(vector, this.kernels.bytes, position * this.kernels.stride);
    if (this.held) this.held[position] = 1;
    this.writeCodes(position, 1);
    this.writePrefix(position, binaryCode(vector));
  }

  /**
   * Adds a vector from its stored entry (int8-entry.ts) and its stored code (`binaryCode`), as
   * `add` would from the vector itself, with nothing to compute but the entry's code.
   */
  addStored(rowid: number, entry: Uint8Array, code: Uint32Array): void {
    if (!isInt8Entry(entry, this.dimensions)) {
      throw new Error(`a stored entry of ${entry.byteLength} bytes in an index of ${this.dimensions} dimensions`);
    }
    const position = this.place(rowid);
    this.writeEntry(position, entry, 0);
    this.writeCodes(position, 1);
    this.writePrefix(position, code);
  }

  /** The signed bytes and factor of the entry at `offset` of `entries`, into `position`; held from now on. */
  private writeEntry(position: number, entries: Uint8Array, offset: number): void {
    this.byteView().set(entries.subarray(offset, offset + this.dimensions), position * this.kernels.stride);
    this.scales[position] = readFactor(entries, offset + this.dimensions);
    if (this.held) this.held[position] = 1;
    if (this.unusable) this.unusable[position] = 0;
  }

  /** The first stage's words of `code` (the vector's sign bits), at `position`. */
  private writePrefix(position: number, code: Uint32Array): void {
    const { prefixes } = this.kernels;
    for (let w = 0; w < PREFIX_WORDS; w++) prefixes[position * PREFIX_WORDS + w] = w < this.words ? (code[w] ?? 0) : 0;
  }

  /**
   * Reads the entries of these positions that are not held yet (a search's shortlist); every
   * entry in one pass instead, once an eighth would have been read so.
   */
  private readFor(positions: Int32Array): void {
    const { held, reader } = this;
    if (held === null || reader === null) return;
    const missing = positions.filter((p) => held[p] === 0);
    if (this.readOneByOne + missing.length >= this.count * ONE_BY_ONE_SHARE) this.readAll(reader);
    else if (missing.length > 0) {
      const { rowids } = this.kernels;
      const read = reader(Array.from(missing, (p) => rowids[p] as number));
      missing.forEach((p, r) => this.writeEntry(p, read.entries, r * (this.dimensions + FACTOR_BYTES)));
      for (const p of missing) this.writeCodes(p, 1);
      for (const r of read.unusable) this.markUnusable(missing[r] as number);
      this.readOneByOne += missing.length;
    }
  }

  /** Reads every entry, a chunk of positions at a time; the index is whole after it. */
  private readAll(reader: EntryReader): void {
    const entryBytes = this.dimensions + FACTOR_BYTES;
    for (let first = 0; first < this.count; first += PASS_CHUNK) {
      const taken = Math.min(PASS_CHUNK, this.count - first);
      const read = reader(this.kernels.rowids.subarray(first, first + taken));
      for (let r = 0; r < taken; r++) this.writeEntry(first + r, read.entries, r * entryBytes);
      this.writeCodes(first, taken);
      for (const r of read.unusable) this.markUnusable(first + r);
    }
    this.reader = null;
    this.held = null;
  }

  private markUnusable(position: number): void {
    this.unusable ??= new Uint8Array(this.kernels.capacity);
    this.unusable[position] = 1;
  }

  /** The codes of the signed bytes at `count` positions from `first` (the second stage's). */
  private writeCodes(first: number, count: number): void {
    this.kernels.writeSignCodes(first, count, this.words, this.codes, first * this.words);
  }

  /** A byte view of the signed bytes, made anew after they move. */
  private byteView(): Uint8Array {
    const { bytes } = this.kernels;
    if (this.unsigned?.buffer !== bytes.buffer || this.unsigned.byteOffset !== bytes.byteOffset) {
      this.unsigned = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    return this.unsigned;
  }

  /** Takes the next position for `rowid` (the caller writes its bytes, scale and code). */
  private place(rowid: number): number {
    if (!Number.isInteger(rowid) || rowid < 0 || rowid > MAX_ROWID) throw new Error(`rowid ${rowid} is out of the index's range`);
    if (this.count === this.kernels.capacity) this.grow();
    this.kernels.rowids[this.count] = rowid;
    if (this.held) this.held[this.count] = 0;
    if (this.unusable) this.unusable[this.count] = 0;
    return this.count++;
  }

  /** Removes the vector of `rowid`, if held: the last vector takes its place. */
  remove(rowid: number): void {
    const { rowids } = this.kernels;
    const position = rowids.subarray(0, this.count).indexOf(rowid);
    if (position < 0) return;
    const last = --this.count;
    if (position !== last) {
      rowids[position] = rowids[last] as number;
      this.codes.copyWithin(position * this.words, last * this.words, (last + 1) * this.words);
      const { prefixes, bytes, stride } = this.kernels;
      prefixes.copyWithin(position * PREFIX_WORDS, last * PREFIX_WORDS, (last + 1) * PREFIX_WORDS);
      bytes.copyWithin(position * stride, last * stride, (last + 1) * stride);
      this.scales[position] = this.scales[last] as number;
      if (this.held) this.held[position] = this.held[last] as number;
      if (this.unusable) this.unusable[position] = this.unusable[last] as number;
    }
    this.last = null;
    this.widest = null;
  }

  /**
   * The rowids of about the `k` vectors nearest to `vector`, nearest first (by the signed
   * bytes); with `admitted`, only among the rowids it admits.
   */
  nearestTo(vector: Float32Array, k: number, admitted?: AdmittedSet): number[] {
    if (this.count === 0 || k <= 0) return [];
    const last = this.last;
    if (
      last &&
      last.count === this.count &&
      last.k === k &&
      last.admitted === admitted &&
      last.admittedVersion === (admitted?.version ?? 0) &&
      sameVector(last.vector, vector)
    ) {
      return last.rowids;
    }
    const rowids = this.rank(vector, k, admitted);
    const population = admitted?.count ?? this.count;
    const widest = this.widest;
    if (!widest || widest.count !== this.count || widest.population <= population || !sameVector(widest.vector, vector)) {
      this.widest = { vector: vector.slice(), count: this.count, k, population, rowids };
    }
    this.last = { vector: vector.slice(), count: this.count, k, admitted, admittedVersion: admitted?.version ?? 0, rowids };
    return rowids;
  }

  /**
   * The widest ranking made for `vector` since the last other query vector (nearest first, under
   * whichever filter admitted the most), when nothing was added or removed since and it asked
   * for at least `k`; null otherwise. A search for one query under a narrower filter can read
   * its candidates from here before ranking again.
   */
  rankedBefore(vector: Float32Array, k: number): readonly number[] | null {
    const widest = this.widest;
    if (!widest || widest.count !== this.count || widest.k < k) return null;
    return sameVector(widest.vector, vector) ? widest.rowids : null;
  }

  private rank(vector: Float32Array, k: number, admitted: AdmittedSet | undefined): number[] {
    // A filter narrows the population the shortlist is a share of.
    const population = admitted === undefined ? this.count : Math.min(admitted.count, this.count);
    const wanted = Math.max(k * SHORTLIST_FACTOR, Math.ceil(population * SHORTLIST_SHARE));
    writeInt8(vector, this.kernels.query, 0);
    const listed =
      this.words <= PREFIX_WORDS || population <= wanted
        ? this.positionsAdmitted(admitted?.bits ?? null)
        : this.prefixShortlist(binaryCode(vector), wanted, admitted);
    this.readFor(listed);
    const { unusable } = this;
    const shortlist = unusable === null ? listed : listed.filter((p) => unusable[p] === 0);
    if (shortlist.length === 0) return [];
    const scores = asymmetricScores(queryTables(vector, this.words), this.codes, this.words, shortlist);
    const best = smallestPositions(scoresAsDistances(scores), shortlist.length, k, WORST_DISTANCE);
    const positions = best.map((p) => shortlist[p] as number);
    const dots = this.kernels.int8Dots(positions);
    const estimates = new Float64Array(positions.length);
    for (let p = 0; p < positions.length; p++)
      estimates[p] = (dots[p] as number) * (this.scales[positions[p] as number] as number);
    return Array.from(positions.keys())
      .sort((a, b) => (estimates[b] as number) - (estimates[a] as number))
      .map((p) => this.kernels.rowids[positions[p] as number] as number);
  }

  /**
   * The first stage: the positions of the `wanted` codes whose first four words are nearest to
   * the query's by Hamming distance, among the rowids `admitted` holds (all without it; the caller
   * asks for no more than it admits).
   */
  private prefixShortlist(query: Uint32Array, wanted: number, admitted: AdmittedSet | undefined): Int32Array {
    const { distances, histogram } = this.kernels.prefixDistances(this.count, query, admitted ?? null);
    const shortlist = positionsOfSmallest(distances, this.count, wanted, histogram);
    if (admitted === undefined) return shortlist;
    // Memories without a vector count towards a filter's set: fewer than `wanted` may be here.
    return shortlist.filter((p) => distances[p] !== REFUSED);
  }

  /** Every position, or those whose rowid `bits` admits. */
  private positionsAdmitted(bits: Uint8Array | null): Int32Array {
    if (bits === null) return allPositions(this.count);
    const positions = new Int32Array(this.count);
    let taken = 0;
    const { rowids } = this.kernels;
    for (let p = 0; p < this.count; p++) if (bits[rowids[p] as number] === 1) positions[taken++] = p;
    return positions.subarray(0, taken);
  }

  private grow(): void {
    const capacity = Math.max(1, this.kernels.capacity * 2);
    this.codes = grown(this.codes, new Uint32Array(capacity * this.words));
    this.kernels.grow(capacity, this.count);
    this.scales = grown(this.scales, new Float32Array(capacity));
    if (this.held) this.held = grown(this.held, new Uint8Array(capacity));
    if (this.unusable) this.unusable = grown(this.unusable, new Uint8Array(capacity));
  }
}

function grown<T extends Float32Array | Uint32Array | Uint8Array>(old: T, bigger: T): T {
  bigger.set(old as never);
  return bigger;
}

function sameVector(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
