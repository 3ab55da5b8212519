/**
 * The schema step that lets a process open the vector index instead of rebuilding it (version
 * 13): each vector's entry in the index (its signed bytes and their factor, ../vector/int8-entry.ts)
 * is kept in `memory_embeddings_int8`, written with the vector and deleted with it, so a first
 * search reads the entries alone, with nothing to decode (each code is computed from its entry's
 * signs as it is copied). Why, and what it costs on disk: docs/decisions/time-to-first-answer.md.
 */
import type Database from 'better-sqlite3';

import { decodeHalfBlob } from '../vector/half-float.js';
import { int8EntryBlob } from '../vector/int8-entry.js';
import type { Migration } from './migration-step.js';

/** The schema from which every vector has its index entry stored beside it. */
export const VECTOR_ENTRIES_SCHEMA = 13;

export const VECTOR_ENTRIES_STEP: Migration = {
  version: VECTOR_ENTRIES_SCHEMA,
  description: "each vector's entry in the vector index (signed bytes and their factor), kept beside it",
  up(db) {
    db.exec(`
      CREATE TABLE memory_embeddings_int8 (rowid INTEGER PRIMARY KEY, entry BLOB NOT NULL);
      CREATE TRIGGER memory_embeddings_int8_follow_delete AFTER DELETE ON memory_embeddings BEGIN
        DELETE FROM memory_embeddings_int8 WHERE rowid = old.rowid;
      END;
    `);
    writeMissingEntries(db);
  },
};

/** Rows read a batch at a time: a statement cannot write while another reads the connection. */
const BATCH = 5_000;

/**
 * Writes the entry of every vector that has none or one of the wrong length (in rowid order, so
 * rows fill their pages); returns how many it wrote. The upgrade writes them all; the doctor's
 * repair, those it found missing.
 */
export function writeMissingEntries(db: Database.Database): number {
  const insert = db.prepare(`INSERT OR REPLACE INTO memory_embeddings_int8 (rowid, entry) VALUES (?, ?)`);
  const batch = db.prepare(
    `SELECT e.rowid, e.vector FROM memory_embeddings e LEFT JOIN memory_embeddings_int8 q ON q.rowid = e.rowid
     WHERE e.rowid > ? AND (q.entry IS NULL OR length(q.entry) <> length(e.vector) / 2 + 4)
     ORDER BY e.rowid LIMIT ${BATCH}`,
  );
  let after = -1;
  let written = 0;
  let vector: Float32Array | undefined;
  for (;;) {
    const rows = batch.raw().all(after) as [number, Buffer][];
    for (const [rowid, blob] of rows) {
      vector = decodeHalfBlob(blob, vector?.length === blob.byteLength / 2 ? vector : new Float32Array(blob.byteLength / 2));
      insert.run(rowid, int8EntryBlob(vector));
      after = rowid;
    }
    written += rows.length;
    if (rows.length < BATCH) return written;
  }
}
