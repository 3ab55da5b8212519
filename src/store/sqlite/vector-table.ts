/**
 * The vectors of an SQLite store: half-precision blobs in `memory_embeddings` (one row per
 * memory, keyed by the memory's rowid; three rows to a 4 KiB page, see
 * docs/decisions/bytes-per-memory.md) with each vector's binary code and the key of what it was
 * made from (the embedding cache answers from it), and per-tenant in-memory quantized indexes
 * for approximate search. A vector is rounded to half precision once, as it is written, and
 * that rounded vector is the memory's vector everywhere: in the file, the index and the float
 * vectors held in memory. Small sets are searched exactly; large ones by the index (binary
 * codes, then signed bytes; see quantized-index.ts), whose best few are then re-scored exactly.
 * A process opens a tenant's index from each stored code's prefix (held in the tenant's index
 * over the vectors, schema 14) and reads each vector's stored entry (schema 13) as searches need
 * it (vector-index-open.ts); every write keeps the entry beside its vector.
 * Exact scores are sqlite-vec's cosine arithmetic in float32 (float-vectors.ts), over the held
 * float vectors or over blobs read from the file, with the same bits either way. A filter that
 * leaves out most of the nearest vectors has the set it admits held (admitted-sets.ts), and the
 * index ranks within it. While they fit a memory budget (32 MiB: 16k vectors of 512
 * dimensions), the float vectors of a searched tenant are held (float-vectors.ts), so the exact
 * stage reads no blobs from the file; a larger tenant's few finalists are read by rowid (about
 * 1 ms a search at 100k, for 200 MiB not held: docs/decisions/time-to-first-answer.md).
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type Database from 'better-sqlite3';

import { vectorToBlob } from '../sql-core/rows.js';
import { FloatVectors, squaredLength } from '../vector/float-vectors.js';
import {
  decodeHalfBlob,
  halfBlobSimilarity,
  halfBlobToVector,
  isHalfBlobOf,
  roundToHalf,
  vectorToHalfBlob,
} from '../vector/half-float.js';
import { int8EntryBlob } from '../vector/int8-entry.js';
import { binaryCode, type QuantizedIndex } from '../vector/quantized-index.js';
import { AdmittedSets } from './admitted-sets.js';
import type { Clause } from './filter-clause.js';
import { QueryScores } from './query-scores.js';
import { CODE_PREFIX_INDEX, CODE_PREFIX_SCHEMA } from './schema-code-prefixes.js';
import { VECTOR_ENTRIES_SCHEMA } from './schema-vector-entries.js';
import { HALF_VECTORS_SCHEMA } from './schema-vectors.js';
import { cachedStatement } from './statement-cache.js';
import { openVectorIndex } from './vector-index-open.js';

/** Up to this many candidate vectors, an exact scan is cheap enough (a few ms) and exact. */
export const EXACT_SCAN_MAX = 4_000;
/**
 * Candidates the index ranks by their signed bytes: this many per result asked for, at least
 * `MIN_CANDIDATES`, and at least `CANDIDATES_SHARE` of the index, since in a larger index more
 * near neighbours look alike to the codes. Measured on clustered vectors, the best 600 by the
 * codes held 98% of the exact top 10 at 100k (400: 94%); at a million the best 2,400 held 97%
 * and the best 3,900 98.5% (600: 79%).
 */
const CANDIDATES_PER_RESULT = 4;
const MIN_CANDIDATES = 600;
const CANDIDATES_SHARE = 1 / 256;
/**
 * A small index needs fewer: the minimum is at most this share of it (at 10k, the best 313 held
 * 98.8% of the exact top 50 and 99.9% of the top 10; the best 600, 99.4% and 100%).
 */
const SMALL_INDEX_SHARE = 1 / 32;
/**
 * Of those the filter admits, the best this many per result asked for are re-scored exactly in
 * SQL (at 100k, 1.5 found as much of the exact top 10 and top 50 as 2 did; 1 lost a point).
 */
const EXACT_PER_RESULT = 1.5;

/**
 * The float vectors held in memory at most, in bytes, unless the store is told otherwise: a small
 * tenant's (10k vectors of 512 dimensions take 20 MiB), not a large one's (200 MiB at 100k).
 */
export const FLOAT_VECTOR_BYTES = 32 * 1024 * 1024;

/** A nearest-neighbour hit: memory id and cosine similarity. */
export interface VectorRow {
  id: string;
  similarity: number;
}

export class VectorTable {
  private readonly db: Database.Database;
  private readonly indexes = new Map<string, QuantizedIndex>();
  /** The float vectors of indexed tenants, while they fit `floatBudget`. */
  private readonly floats = new Map<string, FloatVectors>();
  private readonly floatBudget: number;
  private readonly admittedSets: AdmittedSets;
  private readonly scores = new QueryScores();
  /** SQLite's data_version when the indexes were built; it moves when another connection writes. */
  private seenVersion: number;
  /** The dimensions of every stored vector, once known. */
  private dimensions: number | null = null;
  /** Whether the file keeps half-precision vectors, once asked. */
  private half: boolean | undefined;
  /** Whether the file keeps each vector's index entry, once asked. */
  private entries: boolean | undefined;
  /** Whether the file keeps each code's prefix in the tenant's index, once asked. */
  private prefixes: boolean | undefined;

  /** @param options.floatBytes float vectors held in memory at most (0: none) @default FLOAT_VECTOR_BYTES */
  constructor(db: Database.Database, options: { floatBytes?: number } = {}) {
    this.db = db;
    this.floatBudget = options.floatBytes ?? FLOAT_VECTOR_BYTES;
    this.admittedSets = new AdmittedSets(db);
    this.seenVersion = this.dataVersion();
  }

  /**
   * Stores the vector of memory `rowid` (id `id`), rounded to half precision; every vector of a
   * database has one length. `inputKey` is the key of the text it was made from
   * (`storedVectorKey`), by which the embedding cache finds it again.
   */
  write(rowid: number, id: string, tenant: string, vector: Float32Array, inputKey: bigint | null = null): void {
    this.dimensions ??= this.readDimensions();
    if (this.dimensions !== null && this.dimensions !== vector.length) {
      throw new Error(`vector of ${vector.length} dimensions in an index of ${this.dimensions}`);
    }
    this.dimensions = vector.length;
    this.scores.drop(rowid);
    if (!this.halfVectors()) {
      // A file held at an older schema (`migrateTo`, for the migration tests): as it was written then.
      this.db
        .prepare(`INSERT OR REPLACE INTO memory_embeddings (rowid, tenant, vector, code) VALUES (?, ?, ?, ?)`)
        .run(rowid, tenant, vectorToBlob(vector), Buffer.from(binaryCode(vector).buffer));
      return;
    }
    const stored = roundToHalf(vector);
    const code = binaryCode(stored);
    cachedStatement(
      this.db,
      `INSERT OR REPLACE INTO memory_embeddings (rowid, tenant, vector, code, input_key) VALUES (?, ?, ?, ?, ?)`,
    ).run(rowid, tenant, vectorToHalfBlob(stored), Buffer.from(code.buffer), inputKey);
    const entry = int8EntryBlob(stored);
    if (this.keepsEntries()) {
      cachedStatement(this.db, `INSERT OR REPLACE INTO memory_embeddings_int8 (rowid, entry) VALUES (?, ?)`).run(rowid, entry);
    }
    // A loaded index is kept current in place (a replaced vector was removed first, by `delete`).
    const index = this.indexes.get(tenant);
    if (index?.dimensions === vector.length) index.addStored(rowid, entry, code);
    else if (index) this.indexes.delete(tenant); // built before the tenant had vectors: build anew
    const floats = this.floats.get(tenant);
    if (floats?.dimensions === vector.length) floats.set(rowid, id, stored);
    else this.floats.delete(tenant);
    if (this.floatBytes() > this.floatBudget) this.floats.delete(tenant); // grown past the budget: read from the file
  }

  /**
   * Removes the vector of memory `rowid` (the memory row's delete trigger does it too), from the
   * table and from any loaded index: rebuilding one would cost seconds at 100k.
   */
  delete(rowid: number): void {
    const { changes } = this.db.prepare(`DELETE FROM memory_embeddings WHERE rowid = ?`).run(rowid);
    this.scores.drop(rowid);
    if (changes > 0) for (const index of this.indexes.values()) index.remove(rowid);
    for (const floats of this.floats.values()) floats.delete(rowid);
  }

  /** Removes every vector. */
  clear(): void {
    this.db.exec(`DELETE FROM memory_embeddings`);
    this.dimensions = null;
    this.forget();
  }

  count(tenant: string): number {
    return cachedStatement(this.db, `SELECT count(*) FROM memory_embeddings WHERE tenant = ?`).pluck().get(tenant) as number;
  }

  /**
   * The tenant's vectors, counted up to `most`: whether a search scans or uses the index needs
   * no more, and a full count walks the tenant's index (about 35 ms at a million).
   */
  private countUpTo(tenant: string, most: number): number {
    return cachedStatement(this.db, `SELECT count(*) FROM (SELECT 1 FROM memory_embeddings WHERE tenant = ? LIMIT ?)`)
      .pluck()
      .get(tenant, most) as number;
  }

  /**
   * The `limit` memories nearest to `vector` among those `where` admits (over alias `m`).
   * @param options.exact scan every candidate instead of using the in-memory index
   * @param options.bounded when the filter's set is not held and the first approximate
   *   candidates hold too few, return those rather than reading (and holding) the set
   */
  search(
    tenant: string,
    where: Clause,
    vector: Float32Array,
    limit: number,
    options: { exact: boolean; bounded: boolean },
  ): VectorRow[] {
    if (limit <= 0) return [];
    this.checkVersion();
    const query = vectorToBlob(vector);
    const total = this.indexes.get(tenant)?.size ?? this.countUpTo(tenant, EXACT_SCAN_MAX + 1);
    if (options.exact || total <= EXACT_SCAN_MAX) return this.scan(tenant, where, vector, limit);
    const index = this.indexFor(tenant);
    const rescore = (rowids: readonly number[]) =>
      this.rescore(tenant, rowids.slice(0, Math.ceil(limit * EXACT_PER_RESULT)), vector, query, limit);
    const first = Math.max(
      limit * CANDIDATES_PER_RESULT,
      Math.min(MIN_CANDIDATES, Math.ceil(index.size * SMALL_INDEX_SHARE)),
      Math.ceil(index.size * CANDIDATES_SHARE),
    );
    // A filter used again (a session's scopes, the default one) has its set held: the index
    // skips what it refuses as it ranks, with no question to SQLite per candidate.
    let admitted =
      this.admittedSets.held(where) ?? (this.admittedSets.recurring(where) ? this.admittedSets.build(where) : undefined);
    if (admitted === undefined) {
      // A filter used once: ask SQLite about the first candidates alone, as most filters admit
      // most of them.
      const rows = rescore(this.admittedAmong(index.nearestTo(vector, first), where));
      if (rows.length >= limit || options.bounded || first >= index.size) return rows;
      // This one leaves out too many of them: hold the set it admits and rank within it.
      admitted = this.admittedSets.build(where);
    } else if (options.bounded) {
      // The same query ranked with no filter a moment ago (a recall decision's wide search):
      // its first candidates, read against the held set, answer as they would for a set not held.
      const ranked = index.rankedBefore(vector, first);
      if (ranked !== null) {
        const { bits } = admitted;
        return rescore(ranked.slice(0, first).filter((rowid) => bits[rowid] === 1));
      }
    }
    return rescore(index.nearestTo(vector, first, admitted));
  }

  /**
   * Those of these candidate rowids that `where` admits, in their order. Filtering first reads
   * only the memories' rows (about 1 µs a candidate), where re-scoring reads each vector too.
   */
  private admittedAmong(candidates: readonly number[], where: Clause): number[] {
    return cachedStatement(
      this.db,
      // CROSS JOIN fixes the order: look the candidates up by rowid, then filter. Left to itself
      // the planner walks the tenant's memories instead (30 ms rather than 1 ms at 100k).
      `SELECT m.rowid FROM json_each(?) j CROSS JOIN memories m ON m.rowid = j.value WHERE ${where.sql} ORDER BY j.key`,
    )
      .pluck()
      .all(JSON.stringify(candidates), ...where.params) as number[];
  }

  /** The best `limit` of these rowids, by exact cosine similarity (`query` is `vector`'s blob). */
  private rescore(tenant: string, rowids: readonly number[], vector: Float32Array, query: Buffer, limit: number): VectorRow[] {
    if (rowids.length === 0) return [];
    const { known, missing } = this.scores.split(query, rowids);
    const floats = this.floats.get(tenant);
    const scored =
      missing.length === 0
        ? []
        : floats
          ? this.floatScores(floats, missing, vector)
          : blobScores(
              cachedStatement(
                this.db,
                `SELECT e.rowid AS rowid, m.id AS id, e.vector AS vector
                 FROM json_each(?) j
                 CROSS JOIN memory_embeddings e ON e.rowid = j.value
                 CROSS JOIN memories m ON m.rowid = e.rowid`,
              ).all(JSON.stringify(missing)) as BlobRow[],
              vector,
            );
    this.scores.keep(scored);
    return [...known, ...scored.map(({ id, similarity }) => ({ id, similarity }))]
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, limit);
  }

  /** Cosine similarity of `vector` to each of these memories that has a vector. */
  similarities(tenant: string, ids: readonly string[], vector: Float32Array): Map<string, number> {
    if (ids.length === 0) return new Map();
    const floats = this.heldFloats(tenant);
    if (floats) {
      const rows = this.floatScores(floats, heldRowids(floats, ids), vector);
      return new Map(rows.map((row) => [row.id, row.similarity]));
    }
    const rows = blobScores(this.blobsOf(tenant, ids), vector);
    return new Map(rows.map((row) => [row.id, row.similarity]));
  }

  /** The stored vectors of these memories. */
  vectorsOf(tenant: string, ids: readonly string[]): Map<string, Float32Array> {
    if (ids.length === 0) return new Map();
    const floats = this.heldFloats(tenant);
    if (floats) {
      const found = new Map<string, Float32Array>();
      for (const rowid of heldRowids(floats, ids)) {
        const vector = floats.vector(rowid);
        if (vector) found.set(floats.idOf(rowid) as string, vector);
      }
      return found;
    }
    return new Map(this.blobsOf(tenant, ids).map((row) => [row.id, halfBlobToVector(row.vector)]));
  }

  /** The stored vectors of these memories of `tenant`, as read from the file. */
  private blobsOf(tenant: string, ids: readonly string[]): BlobRow[] {
    return cachedStatement(
      this.db,
      `SELECT m.rowid AS rowid, m.id AS id, e.vector AS vector
         FROM json_each(?) j
         CROSS JOIN memories m ON m.id = j.value
         CROSS JOIN memory_embeddings e ON e.rowid = m.rowid
         WHERE m.tenant = ?`,
    ).all(JSON.stringify(ids), tenant) as BlobRow[];
  }

  /** Drops the in-memory indexes; the next search rebuilds what it needs. */
  forget(): void {
    this.indexes.clear();
    this.floats.clear();
    this.admittedSets.clear();
    this.scores.clear();
    this.dimensions = null; // a failed write transaction may have set it
    this.prefixes = undefined; // another connection may have made or dropped the index
    this.seenVersion = this.dataVersion();
  }

  /**
   * Every vector `where` admits, scored exactly: over the tenant's held float vectors (held for
   * the scan when they fit the budget), else over blobs read from the file. Ordered as SQL's
   * `ORDER BY similarity DESC` would: a vector of zeros (no similarity) last.
   */
  private scan(tenant: string, where: Clause, vector: Float32Array, limit: number): VectorRow[] {
    const floats = this.floatsFor(tenant);
    const scored = floats
      ? this.floatScores(
          floats,
          this.db
            .prepare(`SELECT e.rowid FROM memory_embeddings e JOIN memories m ON m.rowid = e.rowid WHERE ${where.sql}`)
            .pluck()
            .all(...where.params) as number[],
          vector,
        )
      : blobScores(
          this.db
            .prepare(
              `SELECT e.rowid AS rowid, m.id AS id, e.vector AS vector
               FROM memory_embeddings e JOIN memories m ON m.rowid = e.rowid WHERE ${where.sql}`,
            )
            .all(...where.params) as BlobRow[],
          vector,
        );
    return scored
      .sort((a, b) => (b.similarity ?? -Infinity) - (a.similarity ?? -Infinity))
      .slice(0, limit)
      .map(({ id, similarity }) => ({ id, similarity }));
  }

  /**
   * The float vectors of `tenant`, read and held now if they fit what the budget has left
   * (`count`: the tenant's vectors, when the caller has just counted them).
   */
  private floatsFor(tenant: string, count?: number): FloatVectors | undefined {
    const held = this.floats.get(tenant);
    if (held) return held;
    const dimensions = this.dimensions ?? this.readDimensions();
    if (dimensions === null) return undefined;
    count ??= this.count(tenant);
    if (count === 0 || this.floatBytes() + count * dimensions * 4 > this.floatBudget) return undefined;
    const floats = new FloatVectors(dimensions, count);
    // The tenant's ids from an index alone (joining each vector to its row cost ten times more).
    const ids = new Map(
      cachedStatement(this.db, `SELECT rowid, id FROM memories WHERE tenant = ?`).raw().all(tenant) as [number, string][],
    );
    const rows = cachedStatement(this.db, `SELECT rowid, vector FROM memory_embeddings WHERE tenant = ?`)
      .raw()
      .iterate(tenant) as Iterable<[number, Buffer]>;
    const vector = new Float32Array(dimensions); // decoded into one array: `set` copies it
    for (const [rowid, blob] of rows) {
      const id = ids.get(rowid);
      if (id !== undefined && isHalfBlobOf(blob, dimensions)) floats.set(rowid, id, decodeHalfBlob(blob, vector));
    }
    this.floats.set(tenant, floats);
    return floats;
  }

  /** The index of `tenant`, opened from the stored prefixes and entries (vector-index-open.ts). */
  private indexFor(tenant: string): QuantizedIndex {
    let index = this.indexes.get(tenant);
    if (index) return index;
    const dimensions = this.dimensions ?? this.readDimensions() ?? 0;
    index = openVectorIndex(this.db, tenant, dimensions, this.keepsPrefixes());
    this.indexes.set(tenant, index);
    this.floatsFor(tenant, index.size); // held too when they fit the budget; re-scored from the file otherwise
    return index;
  }

  /** The float vectors held for `tenant`, after dropping what another connection's writes made stale. */
  private heldFloats(tenant: string): FloatVectors | undefined {
    if (this.floats.size === 0) return undefined;
    this.checkVersion();
    return this.floats.get(tenant);
  }

  /** Exact scores of these rowids' held vectors, in their order; the SQL's NULL for a vector of zeros stays null. */
  private floatScores(floats: FloatVectors, rowids: readonly number[], vector: Float32Array): (VectorRow & { rowid: number })[] {
    // Typed as numbers as the SQL's rows are, where a vector of zeros gives NULL too.
    return floats.scores(rowids, vector, squaredLength(vector)) as (VectorRow & { rowid: number })[];
  }

  private floatBytes(): number {
    let bytes = 0;
    for (const floats of this.floats.values()) bytes += floats.byteLength;
    return bytes;
  }

  /** Whether the file keeps half-precision vectors (schema 12 on, as every file this build opens unheld). */
  private halfVectors(): boolean {
    this.half ??= this.schema() >= HALF_VECTORS_SCHEMA;
    return this.half;
  }

  /** Whether the file keeps each vector's index entry beside it (schema 13 on). */
  private keepsEntries(): boolean {
    this.entries ??= this.schema() >= VECTOR_ENTRIES_SCHEMA;
    return this.entries;
  }

  /**
   * Whether the tenant's index over the vectors holds each code's prefix (schema 14 on), and is
   * there: one dropped by hand (the doctor reports it) leaves the index computed from the vectors.
   */
  private keepsPrefixes(): boolean {
    this.prefixes ??=
      this.schema() >= CODE_PREFIX_SCHEMA &&
      this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?`).get(CODE_PREFIX_INDEX) !== undefined;
    return this.prefixes;
  }

  private schema(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  /** The dimensions of the stored vectors (two bytes each), or null when none is stored. */
  private readDimensions(): number | null {
    const bytes = this.db.prepare(`SELECT length(vector) FROM memory_embeddings LIMIT 1`).pluck().get() as number | undefined;
    return bytes === undefined ? null : bytes / (this.halfVectors() ? 2 : 4);
  }

  private checkVersion(): void {
    if (this.dataVersion() !== this.seenVersion) this.forget();
  }

  private dataVersion(): number {
    // A kept statement: `pragma()` compiles one anew each time (50 µs, asked several times a decision).
    return cachedStatement(this.db, 'PRAGMA data_version').pluck().get() as number;
  }
}

/** A stored vector as read from the file. */
interface BlobRow {
  rowid: number;
  id: string;
  vector: Buffer;
}

/** Exact scores of vectors read from the file, in their order; null for a vector of zeros, as SQL's. */
function blobScores(rows: readonly BlobRow[], query: Float32Array): (VectorRow & { rowid: number })[] {
  const queryLength = squaredLength(query);
  // Typed as numbers as the held vectors' scores are (see `floatScores`).
  return rows.map(({ rowid, id, vector }) => ({
    rowid,
    id,
    similarity: halfBlobSimilarity(vector, query, queryLength) as number,
  }));
}

/** The rowids of these memories' held vectors, in their order (a memory with none has none). */
function heldRowids(floats: FloatVectors, ids: readonly string[]): number[] {
  return ids.flatMap((id) => floats.rowidOf(id) ?? []);
}
