/**
 * What the doctor asks of the vector table, as SQL selections over it and the memories, and the
 * embedder `engram_meta` records for the vectors (see doctor-vectors.ts).
 */
import type Database from 'better-sqlite3';

import type { VectorIndexInfo } from '../store.js';
import { INDEX_INFO_KEY } from './sqlite-store.js';

/** The id recorded for a database stored without vectors (NO_EMBEDDER_ID of the embedding layer, above this one). */
export const NO_EMBEDDER = 'none';

/** Vectors whose memory is gone. */
export const STRAY = `FROM memory_embeddings AS e WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.rowid = e.rowid)`;
/** Vectors filed under another tenant than their memory's. */
export const OTHER_TENANT = `FROM memory_embeddings e JOIN memories m ON m.rowid = e.rowid WHERE e.tenant <> m.tenant`;
/** Memories that should have a vector and have none. */
export const WITHOUT_VECTOR = `FROM memories m WHERE m.kind <> 'working_set'
  AND NOT EXISTS (SELECT 1 FROM memory_embeddings e WHERE e.rowid = m.rowid)`;
/** Codes whose length does not fit their vector's: one bit per dimension, in 32-bit words. */
export const BAD_CODE = `FROM memory_embeddings WHERE length(code) <> ((length(vector) / 4 + 31) / 32) * 4`;

/** What `engram_meta` records about the vectors' embedder: the info, none yet, or something unreadable. */
export type RecordedEmbedder = { info: VectorIndexInfo | null } | { unreadable: string };

/** The embedder `engram_meta` records for the vectors. */
export function recordedEmbedder(db: Database.Database): RecordedEmbedder {
  const value = db.prepare(`SELECT value FROM engram_meta WHERE key = ?`).pluck().get(INDEX_INFO_KEY) as string | undefined;
  if (value === undefined) return { info: null };
  try {
    const info = JSON.parse(value) as Partial<VectorIndexInfo>;
    if (typeof info.model === 'string' && typeof info.dimensions === 'number') return { info: info as VectorIndexInfo };
  } catch {
    // not JSON: unreadable, like any other shape that is not a VectorIndexInfo
  }
  return { unreadable: value };
}
