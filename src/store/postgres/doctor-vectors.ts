/**
 * The doctor's vector part for PostgreSQL, as the SQLite one (../sqlite/doctor-vectors.ts): one
 * vector per memory (but the working set, which is never found by meaning), none without a
 * memory or under another tenant, every vector and binary code of the length the recorded
 * embedder gives. The repair drops what belongs to no memory or has the wrong length and
 * recomputes wrong codes; a memory without a vector needs the embedder, so the facade re-embeds
 * it (or `engram reindex` does). Every repair that changes the vectors moves
 * `vector_change_count`, so the servers sharing the database rebuild their in-memory indexes.
 */
import type { DoctorRepair } from '../doctor-report.js';
import {
  embedsWith,
  NO_EMBEDDER,
  parseRecordedEmbedder,
  type RecordedEmbedder,
  vectorFindings,
} from '../doctor-vector-findings.js';
import { INDEX_INFO_KEY } from '../sql-core/index-info.js';
import { OTHER_TENANT, STRAY, WITHOUT_VECTOR } from '../sql-core/vector-faults.js';
import { binaryCode } from '../vector/quantized-index.js';
import type { Queryable } from './connection.js';
import { changesOf, countOf, EXAMPLES, idsOf, type PostgresDoctorPart } from './doctor-part.js';
import { bytesToVector } from './vector-table.js';

/** Codes whose length does not fit their vector's: one bit per dimension, in 32-bit words. */
const BAD_CODE = `FROM memory_embeddings e WHERE length(e.code) <> ((length(e.vector) / 4 + 31) / 32) * 4`;

export async function recordedEmbedder(db: Queryable): Promise<RecordedEmbedder> {
  const result = await db.query(`SELECT value FROM engram_meta WHERE key = $1`, [INDEX_INFO_KEY]);
  return parseRecordedEmbedder((result.rows[0] as { value: string } | undefined)?.value);
}

/** Moves the count of vector changes, so every server's in-memory index is rebuilt. */
export async function countVectorChange(db: Queryable): Promise<void> {
  await db.query(`UPDATE vector_change_count SET change = change + 1`);
}

export const vectorsPart: PostgresDoctorPart = {
  check: 'vectors',
  tables: ['memories', 'memory_embeddings', 'engram_meta'],

  async examine(db) {
    const recorded = await recordedEmbedder(db);
    const info = embedsWith(recorded);
    const missing = info === null ? 0 : await countOf(db, `SELECT count(*) AS n ${WITHOUT_VECTOR}`);
    return vectorFindings({
      recorded,
      vectors: await countOf(db, `SELECT count(*) AS n FROM memory_embeddings`),
      stray: await countOf(db, `SELECT count(*) AS n ${STRAY}`),
      misplaced: await countOf(db, `SELECT count(*) AS n ${OTHER_TENANT}`),
      wrongLength:
        info === null
          ? 0
          : await countOf(db, `SELECT count(*) AS n FROM memory_embeddings WHERE length(vector) <> $1`, [info.dimensions * 4]),
      badCodes: await countOf(db, `SELECT count(*) AS n ${BAD_CODE}`),
      missing,
      missingIds: missing === 0 ? [] : await idsOf(db, `SELECT m.id ${WITHOUT_VECTOR} ORDER BY m.rowid LIMIT ${EXAMPLES}`),
    });
  },

  async repair(db) {
    const repairs: DoctorRepair[] = [];
    const recorded = await recordedEmbedder(db);
    const info = 'info' in recorded ? recorded.info : null;
    const done = (message: string, changes: number) => {
      if (changes > 0) repairs.push({ check: 'vectors', message: `${message} (${changes})` });
    };
    if (info?.model === NO_EMBEDDER) {
      done('removed the vectors of a database recorded as lexical-only', await changesOf(db, `DELETE FROM memory_embeddings`));
    }
    done('removed vectors without a memory', await changesOf(db, `DELETE ${STRAY}`));
    done(
      "moved vectors to their memory's tenant",
      await changesOf(
        db,
        `UPDATE memory_embeddings e SET tenant = m.tenant FROM memories m WHERE m.rowid = e.rowid AND e.tenant <> m.tenant`,
      ),
    );
    if (info !== null && info.model !== NO_EMBEDDER) {
      const wrong = await changesOf(db, `DELETE FROM memory_embeddings WHERE length(vector) <> $1`, [info.dimensions * 4]);
      done(`removed vectors not of ${info.dimensions} dimensions, to be embedded again`, wrong);
    }
    done('recomputed binary codes of the wrong length', await recomputeCodes(db));
    if (repairs.length > 0) await countVectorChange(db);
    return repairs;
  },
};

async function recomputeCodes(db: Queryable): Promise<number> {
  const rows = (await db.query(`SELECT e.rowid, e.vector ${BAD_CODE} AND length(e.vector) % 4 = 0`)).rows as {
    rowid: number;
    vector: Buffer;
  }[];
  for (const { rowid, vector } of rows) {
    const code = binaryCode(bytesToVector(vector));
    await db.query(`UPDATE memory_embeddings SET code = $1 WHERE rowid = $2`, [Buffer.from(code.buffer), rowid]);
  }
  return rows.length;
}
