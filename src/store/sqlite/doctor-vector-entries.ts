/**
 * The doctor's check of the vector index's stored entries (schema 13, schema-vector-entries.ts):
 * every vector has its entry beside it, and each entry is what the vector gives. A process opens
 * its index from these entries, so a missing one costs a first search time (it is computed from
 * the vector instead) and a wrong one would rank by a vector that is not there. The repair
 * writes each missing or wrong entry again from its vector; no memory is touched.
 */
import type Database from 'better-sqlite3';

import type { DoctorFinding } from '../doctor-report.js';
import { decodeHalfBlob, halfBlobToVector } from '../vector/half-float.js';
import { int8EntryBlob } from '../vector/int8-entry.js';
import { type DoctorPart, findingsOf, plural, repairable } from './doctor-part.js';
import { writeMissingEntries } from './schema-vector-entries.js';

/** Vectors whose entry is missing or not of their length. */
const MISSING = `FROM memory_embeddings e LEFT JOIN memory_embeddings_int8 q ON q.rowid = e.rowid
  WHERE q.entry IS NULL OR length(q.entry) <> length(e.vector) / 2 + 4`;

export const vectorEntriesPart: DoctorPart = {
  check: 'vectors',
  tables: ['memory_embeddings', 'memory_embeddings_int8'],

  examine(db) {
    const missing = db.prepare(`SELECT count(*) ${MISSING}`).pluck().get() as number;
    const wrong = wrongEntries(db).length;
    const problems: DoctorFinding[] = [];
    if (missing > 0) {
      problems.push(
        repairable(
          'vectors',
          `${plural(missing, 'vector')} without an entry in the stored vector index: a first search computes them from the vectors`,
          'writes them from the vectors',
        ),
      );
    }
    if (wrong > 0) {
      problems.push(
        repairable(
          'vectors',
          `${plural(wrong, 'entry', 'entries')} of the stored vector index differ from their vectors: searches would rank by what the vectors no longer say`,
          'writes them again from the vectors',
        ),
      );
    }
    return findingsOf('vectors', problems, "every vector's entry in the stored vector index matches it");
  },

  repair(db) {
    const rewritten = rewriteEntries(db, wrongEntries(db)) + writeMissingEntries(db);
    return rewritten === 0
      ? []
      : [{ check: 'vectors', message: `wrote the vector index's entries again from their vectors (${rewritten})` }];
  },
};

/** The rowids whose stored entry (of the right length) is not what their vector gives. */
function wrongEntries(db: Database.Database): number[] {
  const rows = db
    .prepare(
      `SELECT e.rowid, e.vector, q.entry FROM memory_embeddings e JOIN memory_embeddings_int8 q ON q.rowid = e.rowid
       WHERE length(q.entry) = length(e.vector) / 2 + 4`,
    )
    .raw()
    .iterate() as Iterable<[number, Buffer, Buffer]>;
  const wrong: number[] = [];
  let vector: Float32Array | undefined;
  for (const [rowid, blob, entry] of rows) {
    vector = decodeHalfBlob(blob, vector?.length === blob.byteLength / 2 ? vector : new Float32Array(blob.byteLength / 2));
    if (!int8EntryBlob(vector).equals(entry)) wrong.push(rowid);
  }
  return wrong;
}

function rewriteEntries(db: Database.Database, rowids: readonly number[]): number {
  const read = db.prepare(`SELECT vector FROM memory_embeddings WHERE rowid = ?`).pluck();
  const write = db.prepare(`UPDATE memory_embeddings_int8 SET entry = ? WHERE rowid = ?`);
  for (const rowid of rowids) write.run(int8EntryBlob(halfBlobToVector(read.get(rowid) as Buffer)), rowid);
  return rowids.length;
}
