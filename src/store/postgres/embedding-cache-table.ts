/**
 * The PostgreSQL embedding cache: first the memories' own vectors, found by the key of the text
 * each was made from (migration 10), then the `embedding_cache` table, which keeps vectors no
 * memory holds by model and text hash, as float32 bytes, looked up and written as arrays in one
 * statement each.
 */
import { storedHashKey } from '../embedding-cache.js';
import type { Queryable } from './connection.js';
import { vectorToBytes } from './vector-table.js';

/** The cached vectors of `model` for these hashes, by hash. */
export async function readCachedEmbeddings(
  db: Queryable,
  model: string,
  hashes: readonly string[],
): Promise<Map<string, Float32Array>> {
  if (hashes.length === 0) return new Map();
  const result = await db.query(`SELECT hash, vector FROM embedding_cache WHERE model = $1 AND hash = ANY($2::text[])`, [
    model,
    [...hashes],
  ]);
  return new Map(
    (result.rows as { hash: string; vector: Buffer }[]).map((row) => [
      row.hash,
      new Float32Array(Uint8Array.from(row.vector).buffer),
    ]),
  );
}

/**
 * The memories' vectors whose text hashes to one of these (the caller checks that the cache's
 * model made them), by hash; keys are 64 bits of the hash.
 */
export async function readStoredVectors(db: Queryable, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
  const hashOf = new Map<string, string>();
  for (const hash of hashes) {
    const key = storedHashKey(hash);
    if (key !== null) hashOf.set(String(key), hash);
  }
  if (hashOf.size === 0) return new Map();
  const result = await db.query(
    `SELECT input_key::text AS key, vector FROM memory_embeddings WHERE input_key = ANY($1::bigint[])`,
    [[...hashOf.keys()]],
  );
  const found = new Map<string, Float32Array>();
  for (const row of result.rows as { key: string; vector: Buffer }[]) {
    const hash = hashOf.get(row.key) as string;
    if (!found.has(hash)) found.set(hash, new Float32Array(Uint8Array.from(row.vector).buffer));
  }
  return found;
}

/** Caches these vectors of `model`; the last entry of a hash wins, as a row-by-row replace would leave it. */
export async function writeCachedEmbeddings(
  db: Queryable,
  model: string,
  entries: readonly { hash: string; vector: Float32Array }[],
): Promise<void> {
  if (entries.length === 0) return;
  const latest = new Map(entries.map((e) => [e.hash, e.vector]));
  await db.query(
    `INSERT INTO embedding_cache (model, hash, vector) SELECT $1, h, v FROM unnest($2::text[], $3::bytea[]) AS u(h, v)
     ON CONFLICT (model, hash) DO UPDATE SET vector = excluded.vector`,
    [model, [...latest.keys()], [...latest.values()].map(vectorToBytes)],
  );
}
