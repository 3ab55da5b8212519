/**
 * The PostgreSQL embedding cache: vectors by model and text hash, as float32 bytes, looked up
 * and written as arrays in one statement each.
 */
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
