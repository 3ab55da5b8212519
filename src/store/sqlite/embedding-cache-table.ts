/**
 * The SQLite embedding cache: first the memories' own vectors, found by the key of the text each
 * was made from (schema 12), then the `embedding_cache` table, which keeps vectors no memory
 * holds (a file used only as a cache) by model and text hash, as float32 blobs, looked up a
 * chunk of hashes at a time and replaced row by row.
 */
import type Database from 'better-sqlite3';

import { storedHashKey } from '../embedding-cache.js';
import { blobToVector, vectorToBlob } from '../sql-core/rows.js';
import { halfBlobToVector } from '../vector/half-float.js';
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

/**
 * The memories' vectors whose text hashes to one of these (the caller checks that the cache's
 * model made them), by hash. Keys are 64 bits of the hash; a memory's vector is the same for
 * every memory with its text, so the first found answers.
 */
export function readStoredVectors(db: Database.Database, hashes: readonly string[]): Map<string, Float32Array> {
  const hashOf = new Map<bigint, string>();
  for (const hash of hashes) {
    const key = storedHashKey(hash);
    if (key !== null) hashOf.set(key, hash);
  }
  const found = new Map<string, Float32Array>();
  for (const chunk of chunks([...hashOf.keys()], IN_CHUNK)) {
    const rows = db
      .prepare(`SELECT input_key, vector FROM memory_embeddings WHERE input_key IN (${chunk.map(() => '?').join(', ')})`)
      .safeIntegers(true)
      .raw()
      .all(...chunk) as [bigint, Buffer][];
    for (const [key, vector] of rows) {
      const hash = hashOf.get(key) as string;
      if (!found.has(hash)) found.set(hash, halfBlobToVector(vector));
    }
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
