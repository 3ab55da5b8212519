/**
 * What the SQLite doctor asks of the vector table beyond the shared selections (../sql-core/), and the
 * embedder `engram_meta` records for the vectors (see doctor-vectors.ts).
 */
import type Database from 'better-sqlite3';

import { parseRecordedEmbedder, type RecordedEmbedder } from '../doctor-vector-findings.js';
import { INDEX_INFO_KEY } from '../sql-core/index-info.js';
import { HALF_VECTORS_SCHEMA } from './schema-vectors.js';

/** Bytes a stored vector's component takes: 2 from schema 12 (half precision), 4 before. */
export function componentBytes(db: Database.Database): number {
  return (db.pragma('user_version', { simple: true }) as number) >= HALF_VECTORS_SCHEMA ? 2 : 4;
}

/** Codes whose length does not fit their vector's: one bit per dimension, in 32-bit words. */
export function badCode(db: Database.Database): string {
  return `FROM memory_embeddings WHERE length(code) <> ((length(vector) / ${componentBytes(db)} + 31) / 32) * 4`;
}

/** The embedder `engram_meta` records for the vectors. */
export function recordedEmbedder(db: Database.Database): RecordedEmbedder {
  return parseRecordedEmbedder(
    db.prepare(`SELECT value FROM engram_meta WHERE key = ?`).pluck().get(INDEX_INFO_KEY) as string | undefined,
  );
}
