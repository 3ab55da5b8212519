/**
 * The schema step that halves what a memory's vector takes on disk (version 12): vectors at half
 * precision, three rows to a 4 KiB page where a float32 row took one alone, each kept with the
 * key of the text it was made from, so the embedding cache answers from the memory's own vector
 * and keeps no copy of it. Why: docs/decisions/bytes-per-memory.md.
 */
import type Database from 'better-sqlite3';

import { memoryVectorKey } from '../embedding-cache.js';
import { blobToVector } from '../sql-core/rows.js';
import { roundToHalf, vectorToHalfBlob } from '../vector/half-float.js';
import { binaryCode } from '../vector/quantized-index.js';
import type { Migration } from './migration-step.js';

/** The schema from which vectors are half-precision blobs with the key of their text. */
export const HALF_VECTORS_SCHEMA = 12;

/** The vector table as from schema 12 (the step creates it under another name, then renames it). */
function createVectorTable(db: Database.Database, name: string): void {
  db.exec(`
    CREATE TABLE ${name} (
      rowid INTEGER PRIMARY KEY,
      tenant TEXT NOT NULL,
      vector BLOB NOT NULL,
      code BLOB NOT NULL,
      input_key INTEGER
    );
  `);
}

export const HALF_VECTORS_STEP: Migration = {
  version: HALF_VECTORS_SCHEMA,
  description: 'vectors at half precision with the key of their text; the embedding cache keeps no copy of a memory vector',
  up(db) {
    createVectorTable(db, 'memory_embeddings_half');
    copyVectors(db);
    db.exec(`
      DROP TRIGGER memory_embeddings_follow_delete;
      DROP TABLE memory_embeddings;
      ALTER TABLE memory_embeddings_half RENAME TO memory_embeddings;
      CREATE INDEX memory_embeddings_by_tenant ON memory_embeddings (tenant);
      CREATE INDEX memory_embeddings_by_input ON memory_embeddings (input_key) WHERE input_key IS NOT NULL;
      CREATE TRIGGER memory_embeddings_follow_delete AFTER DELETE ON memories BEGIN
        DELETE FROM memory_embeddings WHERE rowid = old.rowid;
      END;
      -- A file that holds memories answers the cache from their vectors; what it cached before
      -- (each memory's vector again, or the two halves of a vector read with its context) goes.
      -- A file used only as a cache keeps its entries.
      DELETE FROM embedding_cache WHERE EXISTS (SELECT 1 FROM memories);
    `);
  },
};

/** Rows copied a batch at a time: a statement cannot write while another reads the connection. */
const BATCH = 5_000;

/** Every vector, rounded to half precision, in rowid order (so rows fill their pages). */
function copyVectors(db: Database.Database): void {
  const insert = db.prepare(`INSERT INTO memory_embeddings_half (rowid, tenant, vector, code, input_key) VALUES (?, ?, ?, ?, ?)`);
  const batch = db.prepare(
    `SELECT e.rowid, e.tenant, e.vector, m.text, m.context
     FROM memory_embeddings e LEFT JOIN memories m ON m.rowid = e.rowid
     WHERE e.rowid > ? ORDER BY e.rowid LIMIT ${BATCH}`,
  );
  let after = -Infinity;
  for (;;) {
    const rows = batch.raw().all(after) as [number, string, Buffer, string | null, string | null][];
    for (const [rowid, tenant, blob, text, context] of rows) {
      const vector = roundToHalf(blobToVector(blob));
      const key = text === null ? null : memoryVectorKey({ text, context });
      insert.run(rowid, tenant, vectorToHalfBlob(vector), Buffer.from(binaryCode(vector).buffer), key);
      after = rowid;
    }
    if (rows.length < BATCH) return;
  }
}
