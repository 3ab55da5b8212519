/**
 * The doctor's check of the vector index's stored entries (schema 13, schema-vector-entries.ts;
 * a problem finding of the `vectors` check each, none when all is well: the vectors part gives
 * that check's `ok`):
 * every vector has its entry beside it, and each entry is what the vector gives. A process opens
 * its index from these entries, so a missing one costs a first search time (it is computed from
 * the vector instead) and a wrong one would rank by a vector that is not there. The repair
 * writes each missing or wrong entry again from its vector, and drops an entry whose vector is
 * gone (the trigger that deletes it with its vector was missing: the schema part reports that);
 * no memory is touched.
 */
import type Database from 'better-sqlite3';

import type { DoctorFinding, DoctorRepair } from '../doctor-report.js';
import { embedsWith } from '../doctor-vector-findings.js';
import { decodeHalfBlob, halfBlobToVector } from '../vector/half-float.js';
import { FACTOR_BYTES, int8EntryBlob } from '../vector/int8-entry.js';
import { type DoctorPart, plural, repairable } from './doctor-part.js';
import { writeMissingEntries } from './schema-vector-entries.js';
import { recordedEmbedder } from './vector-faults.js';

/**
 * Vectors the vectors part finds sound (a memory of their tenant, the recorded embedder's length,
 * a code of theirs) whose entry is missing or not of their length; the lengths are
 * those of the recorded embedder's vectors.
 * The vectors part reports and repairs the others first.
 */
const MISSING = `FROM memory_embeddings e LEFT JOIN memory_embeddings_int8 q ON q.rowid = e.rowid
  WHERE EXISTS (SELECT 1 FROM memories m WHERE m.rowid = e.rowid AND m.tenant = e.tenant)
    AND length(e.vector) = @vectorBytes AND length(e.code) = @codeBytes
    AND (q.entry IS NULL OR length(q.entry) <> @entryBytes)`;

/** Entries whose vector is gone. */
const STRAY = `FROM memory_embeddings_int8
  WHERE NOT EXISTS (SELECT 1 FROM memory_embeddings e WHERE e.rowid = memory_embeddings_int8.rowid)`;

export const vectorEntriesPart: DoctorPart = {
  check: 'vectors',
  tables: ['memory_embeddings', 'memory_embeddings_int8'],

  examine(db) {
    const stray = db.prepare(`SELECT count(*) ${STRAY}`).pluck().get() as number;
    const problems: DoctorFinding[] = [];
    if (stray > 0) {
      problems.push(
        repairable(
          'vectors',
          `${plural(stray, 'entry', 'entries')} of the stored vector index without a vector: nothing reads them, but they take space`,
          'drops them',
        ),
      );
    }
    const info = embedsWith(recordedEmbedder(db));
    if (info === null) return problems; // no vectors expected: the vectors part says what to do with any
    const missing = db.prepare(`SELECT count(*) ${MISSING}`).pluck().get(lengths(info.dimensions)) as number;
    const wrong = wrongEntries(db).length;
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
    // Healthy, it adds nothing: the vectors part already says the vectors are fine, once.
    return problems;
  },

  repair(db) {
    const dropped = db.prepare(`DELETE ${STRAY}`).run().changes;
    const repairs: DoctorRepair[] =
      dropped === 0 ? [] : [{ check: 'vectors', message: `dropped the vector index's entries without a vector (${dropped})` }];
    if (embedsWith(recordedEmbedder(db)) === null) return repairs;
    const rewritten = rewriteEntries(db, wrongEntries(db)) + writeMissingEntries(db);
    if (rewritten > 0)
      repairs.push({ check: 'vectors', message: `wrote the vector index's entries again from their vectors (${rewritten})` });
    return repairs;
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

/** The lengths of a sound vector of `dimensions`, its code and its entry, in bytes. */
function lengths(dimensions: number): { vectorBytes: number; codeBytes: number; entryBytes: number } {
  return { vectorBytes: 2 * dimensions, codeBytes: Math.ceil(dimensions / 32) * 4, entryBytes: dimensions + FACTOR_BYTES };
}
