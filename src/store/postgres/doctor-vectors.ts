/**
 * The doctor's vector part for PostgreSQL, as the SQLite one (../sqlite/doctor-vectors.ts): one
 * vector per memory (but the working set, which is never found by meaning), none without a
 * memory or under another tenant, every vector and binary code of the length the recorded
 * embedder gives. The repair drops what belongs to no memory or has the wrong length and
 * recomputes wrong codes; a memory without a vector needs the embedder, so the facade re-embeds
 * it (or `engram reindex` does). Every repair that changes the vectors moves
 * `vector_change_count`, so the servers sharing the database rebuild their in-memory indexes.
 */
import type { DoctorFinding, DoctorRepair } from '../doctor-report.js';
import type { VectorIndexInfo } from '../store.js';
import { binaryCode } from '../vector/quantized-index.js';
import type { Queryable } from './connection.js';
import {
  changesOf,
  countOf,
  EXAMPLES,
  examples,
  findingsOf,
  idsOf,
  plural,
  type PostgresDoctorPart,
  REPAIR_COMMAND,
  repairable,
} from './doctor-part.js';
import { INDEX_INFO_KEY } from './postgres-store.js';
import { bytesToVector } from './vector-table.js';

/** The id recorded for a database stored without vectors (NO_EMBEDDER_ID of the embedding layer, above this one). */
const NO_EMBEDDER = 'none';

/** Vectors whose memory is gone (possible only where the foreign key was bypassed, as a restore may). */
export const STRAY = `FROM memory_embeddings AS e WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.rowid = e.rowid)`;
/** Vectors filed under another tenant than their memory's. */
export const OTHER_TENANT = `FROM memory_embeddings e JOIN memories m ON m.rowid = e.rowid WHERE e.tenant <> m.tenant`;
/** Memories that should have a vector and have none. */
export const WITHOUT_VECTOR = `FROM memories m WHERE m.kind <> 'working_set'
  AND NOT EXISTS (SELECT 1 FROM memory_embeddings e WHERE e.rowid = m.rowid)`;
/** Codes whose length does not fit their vector's: one bit per dimension, in 32-bit words. */
const BAD_CODE = `FROM memory_embeddings e WHERE length(e.code) <> ((length(e.vector) / 4 + 31) / 32) * 4`;

/** What `engram_meta` records about the vectors' embedder: the info, none yet, or something unreadable. */
export type RecordedEmbedder = { info: VectorIndexInfo | null } | { unreadable: string };

export async function recordedEmbedder(db: Queryable): Promise<RecordedEmbedder> {
  const result = await db.query(`SELECT value FROM engram_meta WHERE key = $1`, [INDEX_INFO_KEY]);
  const value = (result.rows[0] as { value: string } | undefined)?.value;
  if (value === undefined) return { info: null };
  try {
    const info = JSON.parse(value) as Partial<VectorIndexInfo>;
    if (typeof info.model === 'string' && typeof info.dimensions === 'number') return { info: info as VectorIndexInfo };
  } catch {
    // not JSON: unreadable, like any other shape that is not a VectorIndexInfo
  }
  return { unreadable: value };
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
    const vectors = await countOf(db, `SELECT count(*) AS n FROM memory_embeddings`);
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
    problems.push(...(await strayVectors(db, info, vectors)));
    if (info !== null && info.model !== NO_EMBEDDER) problems.push(...(await missingVectors(db)));
    const healthy =
      vectors === 0
        ? info?.model === NO_EMBEDDER || info === null
          ? 'no vectors: search goes by words alone'
          : 'no vectors yet'
        : `${plural(vectors, 'vector')} of ${info?.dimensions ?? '?'} dimensions, one for each memory`;
    return findingsOf('vectors', problems, healthy);
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

/** Vectors that should not be there, or not as they are. */
async function strayVectors(db: Queryable, info: VectorIndexInfo | null, vectors: number): Promise<DoctorFinding[]> {
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
  const stray = await countOf(db, `SELECT count(*) AS n ${STRAY}`);
  if (stray > 0) problems.push(repairable('vectors', `${plural(stray, 'vector')} without a memory`, 'removes them'));
  const misplaced = await countOf(db, `SELECT count(*) AS n ${OTHER_TENANT}`);
  if (misplaced > 0) {
    problems.push(
      repairable('vectors', `${plural(misplaced, 'vector')} filed under another tenant than its memory`, 'moves them'),
    );
  }
  if (info !== null && info.model !== NO_EMBEDDER) {
    const wrong = await countOf(db, `SELECT count(*) AS n FROM memory_embeddings WHERE length(vector) <> $1`, [
      info.dimensions * 4,
    ]);
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
  const badCodes = await countOf(db, `SELECT count(*) AS n ${BAD_CODE}`);
  if (badCodes > 0)
    problems.push(repairable('vectors', `${plural(badCodes, 'binary code')} of the wrong length`, 'recomputes them'));
  return problems;
}

async function missingVectors(db: Queryable): Promise<DoctorFinding[]> {
  const missing = await countOf(db, `SELECT count(*) AS n ${WITHOUT_VECTOR}`);
  if (missing === 0) return [];
  const ids = await idsOf(db, `SELECT m.id ${WITHOUT_VECTOR} ORDER BY m.rowid LIMIT ${EXAMPLES}`);
  return [
    {
      check: 'vectors',
      status: 'problem',
      message: `${plural(missing, 'memory', 'memories')} without a vector${examples(ids, missing)}: search by meaning cannot find them`,
      fix: `${REPAIR_COMMAND} embeds them when the configured embedder made the other vectors; otherwise engram reindex does`,
    },
  ];
}

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
