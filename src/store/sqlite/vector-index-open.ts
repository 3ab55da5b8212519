/**
 * Opening a tenant's quantized index from what the file keeps (schema 13): each vector's entry,
 * its signed bytes with their factor (in `memory_embeddings_int8`, ../vector/int8-entry.ts). The
 * index copies the stored bytes and computes each code from them (`signCodes` in
 * ../vector/vector-kernels.wat); nothing is decoded, and the vector rows are not read for it. The
 * entries are read in rowid order a few thousand at a time, joined into one blob by SQLite
 * (`group_concat` keeps a blob's bytes in a UTF-8 file, and the cast gives them back as a blob),
 * because reading 100k rows one at a time into JavaScript cost several times the bytes' own
 * reading; every chunk is read in one transaction, so the index is one snapshot of the file. A
 * vector whose entry is missing or of the wrong length (the doctor reports it) has it computed
 * from the vector instead, as a file held at an older schema has for every vector; a vector that
 * is itself of the wrong length is left out, for the doctor to report. Why:
 * docs/decisions/time-to-first-answer.md.
 */
import type Database from 'better-sqlite3';

import { decodeHalfBlob, isHalfBlobOf } from '../vector/half-float.js';
import { FACTOR_BYTES } from '../vector/int8-entry.js';
import { QuantizedIndex } from '../vector/quantized-index.js';
import { cachedStatement } from './statement-cache.js';

/** Rows joined into one blob per query. */
const CHUNK = 4_096;
/** Vectors an opened index has room for beyond those it holds, at least (else an eighth more). */
const ROOM = 1_024;

/**
 * The index of `tenant`'s `count` vectors of `dimensions`, from their stored entries when
 * `entries` says the file keeps them, else computed from the vectors; with room for more than
 * `count`, so the next few writes do not copy the whole index to grow it.
 */
export function openVectorIndex(
  db: Database.Database,
  tenant: string,
  dimensions: number,
  count: number,
  entries: boolean,
): QuantizedIndex {
  const index = new QuantizedIndex(dimensions, count + Math.max(ROOM, Math.ceil(count / 8)));
  if (dimensions === 0) return index;
  db.transaction(() => addVectors(db, index, tenant, dimensions, count, entries))();
  return index;
}

/** Adds the tenant's vectors to `index`: from their entries where stored, else from the vectors. */
function addVectors(
  db: Database.Database,
  index: QuantizedIndex,
  tenant: string,
  dimensions: number,
  count: number,
  entries: boolean,
): void {
  const entryBytes = dimensions + FACTOR_BYTES;
  const joined = entries && (db.pragma('encoding', { simple: true }) as string) === 'UTF-8';
  if (joined) addStored(db, index, tenant, entryBytes);
  if (index.size >= count) return;
  // What the stored entries did not give: a whole file of an older schema, or faults.
  const rest = cachedStatement(
    db,
    joined
      ? `SELECT e.rowid, e.vector FROM memory_embeddings e WHERE e.tenant = ?
           AND NOT EXISTS (SELECT 1 FROM memory_embeddings_int8 q WHERE q.rowid = e.rowid AND length(q.entry) = ${entryBytes})`
      : `SELECT rowid, vector FROM memory_embeddings WHERE tenant = ?`,
  )
    .raw()
    .iterate(tenant) as Iterable<[number, Buffer]>;
  const vector = new Float32Array(dimensions); // decoded into one array: the index copies what it keeps
  for (const [rowid, blob] of rest) {
    if (isHalfBlobOf(blob, dimensions)) index.add(rowid, decodeHalfBlob(blob, vector));
  }
}

/**
 * Adds every vector of `tenant` whose entry is stored, of its length: one statement a chunk,
 * the tenant's rowids read from the tenant's index over the vectors (never the vector rows
 * themselves), so another tenant's rows in between are never read.
 */
function addStored(db: Database.Database, index: QuantizedIndex, tenant: string, entryBytes: number): void {
  const chunk = cachedStatement(
    db,
    `SELECT count(*), max(rowid), group_concat(rowid), CAST(group_concat(entry, '') AS BLOB)
     FROM (SELECT e.rowid AS rowid, q.entry AS entry
           FROM memory_embeddings e
           CROSS JOIN memory_embeddings_int8 q ON q.rowid = e.rowid
           WHERE e.tenant = ? AND e.rowid > ? AND length(q.entry) = ${entryBytes}
           ORDER BY e.rowid LIMIT ${CHUNK})`,
  ).raw();
  let after = -1;
  for (;;) {
    const [count, last, rowidList, entryBlob] = chunk.get(tenant, after) as [number, number, string, Buffer];
    if (count === 0) return;
    index.addStoredRun(rowidList.split(',').map(Number), entryBlob);
    if (count < CHUNK) return;
    after = last;
  }
}
