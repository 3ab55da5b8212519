/**
 * The vectors of a PostgreSQL store: float32 `bytea` in `memory_embeddings` (one row per memory,
 * keyed by the memory's rowid) with each vector's binary code, and per-tenant in-memory
 * quantized indexes (../vector/quantized-index.ts) built from them for approximate search, as
 * the SQLite store does. Small sets are scored exactly here; large ones by the index, whose best
 * few the filter admits are then re-scored exactly. A filter that leaves out too many of the
 * index's candidates falls back to an exact scan of the set it admits.
 *
 * The indexes follow this process's own writes in place. Every transaction that changes the
 * vectors also moves the count in `vector_change_count` (so it commits with the change, or not at
 * all); a search that finds the count moved by anyone else drops the indexes and rebuilds them.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import { cosine } from '../vector/cosine.js';
import { binaryCode, QuantizedIndex } from '../vector/quantized-index.js';
import type { VectorHit } from '../vector-search.js';
import type { Queryable } from './connection.js';
import { Params } from './filter-clause.js';
import { ensureHnswIndex, searchPgvector, vectorLiteral } from './pgvector.js';

/** Up to this many candidate vectors, an exact scan is cheap enough and exact (as in SQLite). */
const EXACT_SCAN_MAX = 4_000;
/** Candidates the index ranks: per result asked for, at least this many, and a share of the index. */
const CANDIDATES_PER_RESULT = 4;
const MIN_CANDIDATES = 600;
const CANDIDATES_SHARE = 1 / 256;
const SMALL_INDEX_SHARE = 1 / 32;
/** Of those the filter admits, the best this many per result asked for are re-scored exactly. */
const EXACT_PER_RESULT = 1.5;

/** Vectors are stored as little-endian float32 bytes. */
export function vectorToBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function bytesToVector(bytes: Buffer): Float32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

export class PostgresVectorTable {
  /** The database has pgvector: vectors go into its column too, and approximate search is its HNSW index (pgvector.ts). */
  pgvector = false;
  /** Dimensions whose HNSW index this process has made sure of. */
  private readonly hnsw = new Set<number>();
  private readonly indexes = new Map<string, QuantizedIndex>();
  /** The `vector_change_count` value the indexes reflect. */
  private seenChange: number | null = null;

  /**
   * Stores the vector of memory `rowid` inside the caller's transaction; every vector of a
   * database has one length. `inputKey` is the key of the text it was made from
   * (`memoryVectorKey`), by which the embedding cache finds it again.
   */
  async write(db: Queryable, rowid: number, tenant: string, vector: Float32Array, inputKey: bigint | null = null): Promise<void> {
    const other = await db.query(`SELECT length(vector) AS bytes FROM memory_embeddings WHERE rowid <> $1 LIMIT 1`, [rowid]);
    const bytes = (other.rows[0] as { bytes: number } | undefined)?.bytes;
    if (bytes !== undefined && bytes !== vector.byteLength) {
      throw new Error(`vector of ${vector.length} dimensions in an index of ${bytes / 4}`);
    }
    const code = binaryCode(vector);
    const values = [rowid, tenant, vectorToBytes(vector), Buffer.from(code.buffer), inputKey === null ? null : String(inputKey)];
    if (this.pgvector) {
      await db.query(
        `INSERT INTO memory_embeddings (rowid, tenant, vector, code, input_key, embedding) VALUES ($1, $2, $3, $4, $5, $6::vector)
         ON CONFLICT (rowid) DO UPDATE SET tenant = excluded.tenant, vector = excluded.vector, code = excluded.code,
           input_key = excluded.input_key, embedding = excluded.embedding`,
        [...values, vectorLiteral(vector)],
      );
      return;
    }
    await db.query(
      `INSERT INTO memory_embeddings (rowid, tenant, vector, code, input_key) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (rowid) DO UPDATE SET tenant = excluded.tenant, vector = excluded.vector, code = excluded.code,
         input_key = excluded.input_key`,
      values,
    );
  }

  /** Removes the vector of memory `rowid` inside the caller's transaction. */
  async delete(db: Queryable, rowid: number): Promise<void> {
    await db.query(`DELETE FROM memory_embeddings WHERE rowid = $1`, [rowid]);
  }

  /** Moves the count of vector changes inside the caller's transaction; returns the new count. */
  async countChange(db: Queryable): Promise<number> {
    const result = await db.query(`UPDATE vector_change_count SET change = change + 1 RETURNING change`);
    return (result.rows[0] as { change: number }).change;
  }

  /**
   * After a committed change numbered `change` (from `countChange`): brings loaded indexes up to
   * date with what this process wrote (`removed` rowids, then `added` vectors). Touches no database.
   */
  committed(
    change: number,
    removed: readonly number[],
    added: readonly { rowid: number; tenant: string; vector: Float32Array }[],
  ): void {
    for (const rowid of removed) for (const index of this.indexes.values()) index.remove(rowid);
    for (const { rowid, tenant, vector } of added) {
      const index = this.indexes.get(tenant);
      if (index?.dimensions === vector.length) index.add(rowid, vector);
      else if (index) this.indexes.delete(tenant);
    }
    // Only when nobody else changed the vectors since the indexes were built do they stay.
    if (this.seenChange !== null && change === this.seenChange + 1) this.seenChange = change;
    else this.forget();
  }

  /** Drops every loaded index; the next search rebuilds what it needs. */
  forget(): void {
    this.indexes.clear();
    this.seenChange = null;
  }

  async count(db: Queryable, tenant: string): Promise<number> {
    const result = await db.query(`SELECT count(*) AS n FROM memory_embeddings WHERE tenant = $1`, [tenant]);
    return (result.rows[0] as { n: number }).n;
  }

  /** The `limit` memories nearest to `vector` among those `where` (over alias `m`, with `params`) admits. */
  async search(
    db: Queryable,
    tenant: string,
    where: string,
    params: Params,
    vector: Float32Array,
    limit: number,
    { exact, bounded }: { exact: boolean; bounded: boolean },
  ): Promise<VectorHit[]> {
    if (limit <= 0) return [];
    if (this.pgvector && !exact) {
      await ensureHnswIndex(db, vector.length, this.hnsw);
      const hits = await searchPgvector(db, where, params, vector, limit);
      // The filter left out too many of the index's nearest: scan exactly what it admits.
      return hits.length >= limit || bounded ? hits : this.scan(db, where, params, vector, limit);
    }
    await this.checkFreshness(db);
    const total = this.indexes.get(tenant)?.size ?? (await this.count(db, tenant));
    if (exact || total <= EXACT_SCAN_MAX) return this.scan(db, where, params, vector, limit);
    const index = await this.indexFor(db, tenant);
    const first = Math.max(
      limit * CANDIDATES_PER_RESULT,
      Math.min(MIN_CANDIDATES, Math.ceil(index.size * SMALL_INDEX_SHARE)),
      Math.ceil(index.size * CANDIDATES_SHARE),
    );
    const candidates = index.nearestTo(vector, first);
    const admitted = await this.admittedAmong(db, candidates, Math.ceil(limit * EXACT_PER_RESULT), where, params);
    const best = this.rescore(admitted, vector, limit);
    if (best.length >= limit || bounded || first >= index.size) return best;
    // The filter left out too many of the nearest: scan exactly what it admits.
    return this.scan(db, where, params, vector, limit);
  }

  /** Cosine similarity of `vector` to each of these memories of `tenant` that has a vector. */
  async similarities(db: Queryable, tenant: string, ids: readonly string[], vector: Float32Array): Promise<Map<string, number>> {
    const vectors = await this.vectorsOf(db, tenant, ids);
    return new Map([...vectors].map(([id, stored]) => [id, cosine(stored, vector)]));
  }

  /** The stored vectors of these memories of `tenant`. */
  async vectorsOf(db: Queryable, tenant: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    if (ids.length === 0) return new Map();
    const result = await db.query(
      `SELECT m.id, e.vector FROM memories m JOIN memory_embeddings e ON e.rowid = m.rowid
       WHERE m.tenant = $1 AND m.id = ANY($2::text[])`,
      [tenant, [...ids]],
    );
    return new Map((result.rows as { id: string; vector: Buffer }[]).map((row) => [row.id, bytesToVector(row.vector)]));
  }

  private async checkFreshness(db: Queryable): Promise<void> {
    const result = await db.query(`SELECT change FROM vector_change_count`);
    const current = (result.rows[0] as { change: number }).change;
    if (this.seenChange !== current) {
      this.indexes.clear();
      this.seenChange = current;
    }
  }

  /**
   * The first `wanted` of these candidate rowids that the filter admits, with their vectors, in
   * the candidates' order: one round trip, and only the vectors to be re-scored cross the wire
   * (a few dozen KiB, not the candidates' megabyte).
   */
  private async admittedAmong(
    db: Queryable,
    rowids: readonly number[],
    wanted: number,
    where: string,
    params: Params,
  ): Promise<{ id: string; vector: Float32Array }[]> {
    if (rowids.length === 0 || wanted <= 0) return [];
    const own = new Params(params.values);
    const list = own.add([...rowids]);
    const result = await db.query(
      `SELECT m.id, e.vector FROM unnest(${list}::integer[]) WITH ORDINALITY AS c(rowid, place)
       JOIN memories m ON m.rowid = c.rowid JOIN memory_embeddings e ON e.rowid = m.rowid
       WHERE ${where} ORDER BY c.place LIMIT ${own.add(wanted)}`,
      own.values,
    );
    return (result.rows as { id: string; vector: Buffer }[]).map((row) => ({ id: row.id, vector: bytesToVector(row.vector) }));
  }

  private rescore(rows: readonly { id: string; vector: Float32Array }[], vector: Float32Array, limit: number): VectorHit[] {
    return rows
      .map((row) => ({ id: row.id, similarity: cosine(row.vector, vector) }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, limit);
  }

  private async scan(db: Queryable, where: string, params: Params, vector: Float32Array, limit: number): Promise<VectorHit[]> {
    const result = await db.query(
      `SELECT m.id, e.vector FROM memory_embeddings e JOIN memories m ON m.rowid = e.rowid WHERE ${where}`,
      params.values,
    );
    const rows = (result.rows as { id: string; vector: Buffer }[]).filter((row) => row.vector.byteLength === vector.byteLength);
    return this.rescore(
      rows.map((row) => ({ id: row.id, vector: bytesToVector(row.vector) })),
      vector,
      limit,
    );
  }

  private async indexFor(db: Queryable, tenant: string): Promise<QuantizedIndex> {
    const held = this.indexes.get(tenant);
    if (held) return held;
    const result = await db.query(`SELECT rowid, vector FROM memory_embeddings WHERE tenant = $1`, [tenant]);
    let index: QuantizedIndex | undefined;
    for (const row of result.rows as { rowid: number; vector: Buffer }[]) {
      const vector = bytesToVector(row.vector);
      index ??= new QuantizedIndex(vector.length, Math.max(1024, result.rows.length));
      index.add(row.rowid, vector);
    }
    index ??= new QuantizedIndex(0);
    this.indexes.set(tenant, index);
    return index;
  }
}
