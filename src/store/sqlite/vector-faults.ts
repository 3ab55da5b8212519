/**
 * What the SQLite doctor asks of the vector table beyond the shared selections (../sql-core/), and the
 * embedder `engram_meta` records for the vectors (see doctor-vectors.ts).
 */
import type Database from 'better-sqlite3';

import { parseRecordedEmbedder, type RecordedEmbedder } from '../doctor-vector-findings.js';
import { INDEX_INFO_KEY } from '../sql-core/index-info.js';

/** Codes whose length does not fit their vector's: one bit per dimension, in 32-bit words. */
export const BAD_CODE = `FROM memory_embeddings WHERE length(code) <> ((length(vector) / 4 + 31) / 32) * 4`;

/** The embedder `engram_meta` records for the vectors. */
export function recordedEmbedder(db: Database.Database): RecordedEmbedder {
  return parseRecordedEmbedder(
    db.prepare(`SELECT value FROM engram_meta WHERE key = ?`).pluck().get(INDEX_INFO_KEY) as string | undefined,
  );
}
