/**
 * The SQLite embedding cache: vectors by model and text hash, as float32 blobs, looked up a
 * chunk of hashes at a time and replaced row by row.
 */
import type Database from 'better-sqlite3';

import { blobToVector, vectorToBlob } from '../sql-core/rows.js';
import { chunks, IN_CHUNK } from './memory-changes.js';

/** The cached vectors of `model` for these hashes, by hash. */
export function readCachedEmbeddings(db: Database.Database, model: string, hashes: readonly string[]): Map<string, Float32Array> {
  const found = new Map<string, Float32Array>();
  for (const chunk of chunks(hashes, IN_CHUNK)) {
    const rows = db
      .prepare(`SELECT hash, vector FROM embedding_cache WHERE model = ? AND hash IN (${chunk.map(() => '?').join(', ')})`)
      .all(model, ...chunk) as { hash: string; vector: Buffer }[];
    for (const row of rows) found.set(row.hash, blobToVector(row.vector));
  }
  return found;
}

/** Caches these vectors of `model`; the caller wraps it in a transaction. The last entry of a hash wins. */
export function writeCachedEmbeddings(
  db: Database.Database,
  model: string,
  entries: readonly { hash: string; vector: Float32Array }[],
): void {
  const statement = db.prepare(`INSERT OR REPLACE INTO embedding_cache (model, hash, vector) VALUES (?, ?, ?)`);
  for (const { hash, vector } of entries) statement.run(model, hash, vectorToBlob(vector));
}
