/**
 * Opening a tenant's quantized index from what the file keeps (schema 14): each vector's code
 * prefix, read from the tenant's index over the vectors (which holds it beside the rowid, so the
 * vector rows are not read), and each vector's entry, its signed bytes with their factor (in
 * `memory_embeddings_int8`, ../vector/int8-entry.ts), read as searches need them
 * (../vector/quantized-index.ts). The prefixes are read in rowid order a few thousand at a time,
 * joined into one blob by SQLite (`group_concat` keeps a blob's bytes in a UTF-8 file, and the
 * cast gives them back as a blob), because reading rows one at a time into JavaScript cost
 * several times the bytes' own reading. A vector whose entry is missing or of the wrong length
 * (the doctor reports it) has it computed from the vector; a vector that is itself of the wrong
 * length is unusable, left out of every ranking, for the doctor to report. A file held at an
 * older schema, or in another encoding, has its index computed from the vectors. Why:
 * docs/decisions/time-to-first-answer.md.
 */
import type Database from 'better-sqlite3';

import { decodeHalfBlob, isHalfBlobOf } from '../vector/half-float.js';
import { FACTOR_BYTES, writeInt8Entry } from '../vector/int8-entry.js';
import { type EntryReader, prefixBytes, QuantizedIndex } from '../vector/quantized-index.js';
import { CODE_PREFIX_INDEX } from './schema-code-prefixes.js';
import { cachedStatement } from './statement-cache.js';

/** Rows joined into one blob per query. */
const CHUNK = 4_096;
/** Vectors an opened index has room for beyond those it holds, at least (else an eighth more). */
const ROOM = 1_024;

/**
 * The index of `tenant`'s vectors of `dimensions`: opened from their prefixes when `prefixes`
 * says the file keeps them (the entries read as searches need them), else computed from the
 * vectors; with room for more than it holds, so the next few writes do not copy it to grow.
 */
export function openVectorIndex(db: Database.Database, tenant: string, dimensions: number, prefixes: boolean): QuantizedIndex {
  if (dimensions === 0) return new QuantizedIndex(0);
  const utf8 = (db.pragma('encoding', { simple: true }) as string) === 'UTF-8';
  return db.transaction(() =>
    prefixes && utf8 ? openFromPrefixes(db, tenant, dimensions) : computeFromVectors(db, tenant, dimensions),
  )();
}

/** The index holding every prefix of the tenant, reading entries through `entryReader`. */
function openFromPrefixes(db: Database.Database, tenant: string, dimensions: number): QuantizedIndex {
  const bytes = prefixBytes(dimensions);
  const chunkOf = (columns: string) =>
    cachedStatement(
      db,
      `SELECT ${columns}
       FROM (SELECT rowid, substr(code, 1, 16) AS prefix FROM memory_embeddings INDEXED BY ${CODE_PREFIX_INDEX}
             WHERE tenant = ? AND rowid > ? ORDER BY rowid LIMIT ${CHUNK})`,
    ).raw();
  // A code of the wrong length (the doctor reports it) holds zeros in its place, and is counted.
  const chunk = chunkOf(
    `count(*), min(rowid), max(rowid), sum(length(prefix) <> ${bytes}),
     CAST(group_concat(CASE WHEN length(prefix) = ${bytes} THEN prefix ELSE zeroblob(${bytes}) END, '') AS BLOB)`,
  );
  const listed = chunkOf(`group_concat(rowid)`);
  let rowids = new Int32Array(CHUNK);
  let held = 0;
  let damaged = 0;
  const runs: Buffer[] = [];
  for (let after = -1; ;) {
    const [count, first, last, wrong, prefixBlob] = chunk.get(tenant, after) as [number, number, number, number, Buffer];
    if (count === 0) break;
    if (held + count > rowids.length) rowids = grown(rowids, held + count);
    // A run of rowids with no gap (most, in a file of one tenant) needs no list of them.
    if (last - first + 1 === count) for (let r = 0; r < count; r++) rowids[held + r] = first + r;
    else rowids.set((listed.get(tenant, after) as [string])[0].split(',').map(Number), held);
    held += count;
    damaged += wrong;
    runs.push(prefixBlob);
    if (count < CHUNK) break;
    after = last;
  }
  const index = QuantizedIndex.fromPrefixes(
    dimensions,
    rowids.subarray(0, held),
    Buffer.concat(runs),
    entryReader(db, dimensions),
    Math.max(ROOM, Math.ceil(held / 8)),
  );
  if (damaged > 0) {
    // Those vectors are taken from the vectors themselves (one of the wrong length is left out).
    const rows = cachedStatement(
      db,
      `SELECT rowid, vector FROM memory_embeddings INDEXED BY ${CODE_PREFIX_INDEX}
       WHERE tenant = ? AND length(substr(code, 1, 16)) <> ${bytes}`,
    )
      .raw()
      .all(tenant) as [number, Buffer][];
    for (const [rowid] of rows) index.remove(rowid);
    addFromVectors(index, rows);
  }
  return index;
}

/**
 * Reads stored entries by rowid, in the caller's order, in one statement; those missing or of the
 * wrong length are computed from their vectors. The order is the JSON array's: a LEFT JOIN keeps
 * `json_each` as the outer loop, which walks the array in order (an ORDER BY in the aggregate
 * would sort every entry again: twice the time).
 */
function entryReader(db: Database.Database, dimensions: number): EntryReader {
  const entryBytes = dimensions + FACTOR_BYTES;
  return (rowids) => {
    const list = JSON.stringify(Array.from(rowids));
    const [missingList, read] = cachedStatement(
      db,
      `SELECT group_concat(CASE WHEN length(q.entry) IS ${entryBytes} THEN NULL ELSE j.key END),
              CAST(group_concat(CASE WHEN length(q.entry) IS ${entryBytes} THEN q.entry ELSE zeroblob(${entryBytes}) END, '') AS BLOB)
       FROM json_each(?) j LEFT JOIN memory_embeddings_int8 q ON q.rowid = j.value`,
    )
      .raw()
      .get(list) as [string | null, Buffer | null];
    const entries = read ?? Buffer.alloc(0); // no rowids asked for
    const unusable: number[] = [];
    if (missingList !== null) {
      const missing = missingList.split(',').map(Number);
      const vectors = new Map(
        cachedStatement(db, `SELECT e.rowid, e.vector FROM json_each(?) j CROSS JOIN memory_embeddings e ON e.rowid = j.value`)
          .raw()
          .all(JSON.stringify(missing.map((r) => rowids[r]))) as [number, Buffer][],
      );
      const into = new Int8Array(entries.buffer, entries.byteOffset, entries.byteLength);
      const vector = new Float32Array(dimensions);
      for (const r of missing) {
        const blob = vectors.get(rowids[r] as number);
        if (blob === undefined || !isHalfBlobOf(blob, dimensions)) unusable.push(r);
        else
          entries.writeFloatLE(writeInt8Entry(decodeHalfBlob(blob, vector), into, r * entryBytes), r * entryBytes + dimensions);
      }
    }
    return { entries, unusable };
  };
}

/** The index computed from every vector of the tenant (a file of an older schema, or not in UTF-8). */
function computeFromVectors(db: Database.Database, tenant: string, dimensions: number): QuantizedIndex {
  const rows = cachedStatement(db, `SELECT rowid, vector FROM memory_embeddings WHERE tenant = ?`)
    .raw()
    .iterate(tenant) as Iterable<[number, Buffer]>;
  const index = new QuantizedIndex(dimensions, ROOM);
  addFromVectors(index, rows);
  return index;
}

/** Adds these vectors, decoded (one of the wrong length is left out, for the doctor to report). */
function addFromVectors(index: QuantizedIndex, rows: Iterable<[number, Buffer]>): void {
  const vector = new Float32Array(index.dimensions); // decoded into one array: the index copies what it keeps
  for (const [rowid, blob] of rows) {
    if (isHalfBlobOf(blob, index.dimensions)) index.add(rowid, decodeHalfBlob(blob, vector));
  }
}

/** `rowids` copied into an array with room for at least `wanted` (twice as many). */
function grown(rowids: Int32Array, wanted: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(Math.max(wanted, rowids.length * 2));
  bigger.set(rowids);
  return bigger;
}
