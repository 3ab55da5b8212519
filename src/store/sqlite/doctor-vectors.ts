/**
 * The doctor's vector part: one vector per memory (but the working set, which is never found by
 * meaning), none without a memory or under another tenant, every vector and binary code of the
 * length the recorded embedder gives. The repair drops what belongs to no memory or has the wrong
 * length and recomputes wrong codes; a memory without a vector needs the embedder, so the facade
 * re-embeds it (or `engram reindex` does).
 */
import type Database from 'better-sqlite3';

import type { DoctorFinding, DoctorRepair } from '../doctor-report.js';
import type { VectorIndexInfo } from '../store.js';
import { binaryCode } from '../vector/quantized-index.js';
import { countOf, type DoctorPart, EXAMPLES, examples, findingsOf, plural, REPAIR_COMMAND, repairable } from './doctor-part.js';
import { blobToVector } from './rows.js';
import { BAD_CODE, NO_EMBEDDER, OTHER_TENANT, recordedEmbedder, STRAY, WITHOUT_VECTOR } from './vector-faults.js';

export const vectorsPart: DoctorPart = {
  check: 'vectors',
  tables: ['memories', 'memory_embeddings', 'engram_meta'],

  examine(db) {
    const recorded = recordedEmbedder(db);
    const vectors = countOf(db, `SELECT count(*) FROM memory_embeddings`);
    const problems: DoctorFinding[] = [];
    if ('unreadable' in recorded) {
      problems.push({
        check: 'vectors',
        status: 'problem',
        message: `the recorded embedder is unreadable (${recorded.unreadable.slice(0, 60)})`,
        fix: 'engram reindex records it anew with every vector',
      });
    }
    const info = 'info' in recorded ? recorded.info : null;
    problems.push(...strayVectors(db, info, vectors));
    if (info !== null && info.model !== NO_EMBEDDER) problems.push(...missingVectors(db));
    const healthy =
      vectors === 0
        ? info?.model === NO_EMBEDDER || info === null
          ? 'no vectors: search goes by words alone'
          : 'no vectors yet'
        : `${plural(vectors, 'vector')} of ${info?.dimensions ?? '?'} dimensions, one for each memory`;
    return findingsOf('vectors', problems, healthy);
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
      const wrong = db.prepare(`DELETE FROM memory_embeddings WHERE length(vector) <> ?`).run(info.dimensions * 4).changes;
      done(`removed vectors not of ${info.dimensions} dimensions, to be embedded again`, wrong);
    }
    done('recomputed binary codes of the wrong length', recomputeCodes(db));
    return repairs;
  },
};

/** Vectors that should not be there, or not as they are. */
function strayVectors(db: Database.Database, info: VectorIndexInfo | null, vectors: number): DoctorFinding[] {
  const problems: DoctorFinding[] = [];
  if (vectors > 0 && info?.model === NO_EMBEDDER) {
    problems.push(repairable('vectors', `${plural(vectors, 'vector')} in a database recorded as lexical-only`, 'removes them'));
  }
  if (vectors > 0 && info === null) {
    problems.push({
      check: 'vectors',
      status: 'problem',
      message: `${plural(vectors, 'vector')} but no embedder recorded for them`,
      fix: 'engram reindex re-embeds every memory and records the embedder',
    });
  }
  const stray = countOf(db, `SELECT count(*) ${STRAY}`);
  if (stray > 0) problems.push(repairable('vectors', `${plural(stray, 'vector')} without a memory`, 'removes them'));
  const misplaced = countOf(db, `SELECT count(*) ${OTHER_TENANT}`);
  if (misplaced > 0) {
    problems.push(
      repairable('vectors', `${plural(misplaced, 'vector')} filed under another tenant than its memory`, 'moves them'),
    );
  }
  if (info !== null && info.model !== NO_EMBEDDER) {
    const wrong = countOf(db, `SELECT count(*) FROM memory_embeddings WHERE length(vector) <> ?`, info.dimensions * 4);
    if (wrong > 0) {
      problems.push(
        repairable(
          'vectors',
          `${plural(wrong, 'vector')} not of the recorded ${info.dimensions} dimensions`,
          'removes them and embeds those memories again',
        ),
      );
    }
  }
  const badCodes = countOf(db, `SELECT count(*) ${BAD_CODE}`);
  if (badCodes > 0) {
    problems.push(repairable('vectors', `${plural(badCodes, 'binary code')} of the wrong length`, 'recomputes them'));
  }
  return problems;
}

function missingVectors(db: Database.Database): DoctorFinding[] {
  const missing = countOf(db, `SELECT count(*) ${WITHOUT_VECTOR}`);
  if (missing === 0) return [];
  const ids = db.prepare(`SELECT m.id ${WITHOUT_VECTOR} LIMIT ${EXAMPLES}`).pluck().all() as string[];
  return [
    {
      check: 'vectors',
      status: 'problem',
      message: `${plural(missing, 'memory', 'memories')} without a vector${examples(ids, missing)}: search by meaning cannot find them`,
      fix: `${REPAIR_COMMAND} embeds them when the configured embedder made the other vectors; otherwise engram reindex does`,
    },
  ];
}

function recomputeCodes(db: Database.Database): number {
  const rows = db.prepare(`SELECT rowid, vector ${BAD_CODE}`).raw().all() as [number, Buffer][];
  const update = db.prepare(`UPDATE memory_embeddings SET code = ? WHERE rowid = ?`);
  for (const [rowid, blob] of rows) update.run(Buffer.from(binaryCode(blobToVector(blob)).buffer), rowid);
  return rows.length;
}
