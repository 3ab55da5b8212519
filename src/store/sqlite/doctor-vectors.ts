/**
 * The doctor's vector part: one vector per memory (but the working set, which is never found by
 * meaning), none without a memory or under another tenant, every vector and binary code of the
 * length the recorded embedder gives. The repair drops what belongs to no memory or has the wrong
 * length and recomputes wrong codes; a memory without a vector needs the embedder, so the facade
 * re-embeds it (or `engram reindex` does).
 */
import type Database from 'better-sqlite3';

import type { DoctorRepair } from '../doctor-report.js';
import { embedsWith, NO_EMBEDDER, vectorFindings } from '../doctor-vector-findings.js';
import { blobToVector } from '../sql-core/rows.js';
import { OTHER_TENANT, STRAY, WITHOUT_VECTOR } from '../sql-core/vector-faults.js';
import { halfBlobToVector } from '../vector/half-float.js';
import { binaryCode } from '../vector/quantized-index.js';
import { countOf, type DoctorPart, EXAMPLES } from './doctor-part.js';
import { badCode, componentBytes, recordedEmbedder } from './vector-faults.js';

export const vectorsPart: DoctorPart = {
  check: 'vectors',
  tables: ['memories', 'memory_embeddings', 'engram_meta'],

  examine(db) {
    const recorded = recordedEmbedder(db);
    const info = embedsWith(recorded);
    const missing = info === null ? 0 : countOf(db, `SELECT count(*) ${WITHOUT_VECTOR}`);
    return vectorFindings({
      recorded,
      vectors: countOf(db, `SELECT count(*) FROM memory_embeddings`),
      stray: countOf(db, `SELECT count(*) ${STRAY}`),
      misplaced: countOf(db, `SELECT count(*) ${OTHER_TENANT}`),
      wrongLength:
        info === null
          ? 0
          : countOf(db, `SELECT count(*) FROM memory_embeddings WHERE length(vector) <> ?`, info.dimensions * componentBytes(db)),
      badCodes: countOf(db, `SELECT count(*) ${badCode(db)}`),
      missing,
      missingIds: missing === 0 ? [] : (db.prepare(`SELECT m.id ${WITHOUT_VECTOR} LIMIT ${EXAMPLES}`).pluck().all() as string[]),
    });
  },

  repair(db) {
    const repairs: DoctorRepair[] = [];
    const recorded = recordedEmbedder(db);
    const info = 'info' in recorded ? recorded.info : null;
    const done = (message: string, changes: number) => {
      if (changes > 0) repairs.push({ check: 'vectors', message: `${message} (${changes})` });
    };
    if (info?.model === NO_EMBEDDER) {
      done(
        'removed the vectors of a database recorded as lexical-only',
        db.prepare(`DELETE FROM memory_embeddings`).run().changes,
      );
    }
    done('removed vectors without a memory', db.prepare(`DELETE ${STRAY}`).run().changes);
    done(
      "moved vectors to their memory's tenant",
      db
        .prepare(
          `UPDATE memory_embeddings SET tenant = (SELECT m.tenant FROM memories m WHERE m.rowid = memory_embeddings.rowid)
          WHERE rowid IN (SELECT e.rowid ${OTHER_TENANT})`,
        )
        .run().changes,
    );
    if (info !== null && info.model !== NO_EMBEDDER) {
      const wrong = db
        .prepare(`DELETE FROM memory_embeddings WHERE length(vector) <> ?`)
        .run(info.dimensions * componentBytes(db)).changes;
      done(`removed vectors not of ${info.dimensions} dimensions, to be embedded again`, wrong);
    }
    done('recomputed binary codes of the wrong length', recomputeCodes(db));
    return repairs;
  },
};

function recomputeCodes(db: Database.Database): number {
  const rows = db
    .prepare(`SELECT rowid, vector ${badCode(db)}`)
    .raw()
    .all() as [number, Buffer][];
  const update = db.prepare(`UPDATE memory_embeddings SET code = ? WHERE rowid = ?`);
  const read = componentBytes(db) === 2 ? halfBlobToVector : blobToVector;
  for (const [rowid, blob] of rows) update.run(Buffer.from(binaryCode(read(blob)).buffer), rowid);
  return rows.length;
}
