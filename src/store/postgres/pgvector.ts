/**
 * Vector search through the pgvector extension, when the database has it (`CREATE EXTENSION
 * vector`, run once by whoever administers it). Each stored vector then also goes into an
 * `embedding vector` column beside its float32 bytes, and an HNSW index (cosine) per dimension
 * answers approximate searches inside the database: no process holds an index of its own, so
 * there is nothing to rebuild when another server writes. Without the extension the store keeps
 * its own in-memory index (vector-table.ts). Exact searches read the bytes either way.
 */
import type { VectorHit } from '../vector-search.js';
import type { Queryable } from './connection.js';
import { Params } from './filter-clause.js';

/** Vectors copied into the new column per statement when a database gains the extension. */
const BACKFILL_PAGE = 500;
/**
 * pgvector's `hnsw.ef_search` bounds: its default, and its largest value. An HNSW scan returns
 * at most ef_search rows, so a search that asks for more sets it to what it asks for.
 */
const EF_SEARCH_DEFAULT = 40;
const EF_SEARCH_MAX = 1_000;

/** pgvector's text form of a vector: `[0.1,0.2,…]`. */
export function vectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector).join(',')}]`;
}

/**
 * Whether the database has pgvector; when it has, makes sure the `embedding` column exists and
 * holds every stored vector (a database that gained the extension after vectors were stored).
 */
export async function preparePgvector(db: Queryable, bytesToVector: (bytes: Buffer) => Float32Array): Promise<boolean> {
  const found = await db.query(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`);
  if (found.rows.length === 0) return false;
  const column = await db.query(
    `SELECT 1 FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = 'memory_embeddings' AND column_name = 'embedding'`,
  );
  // Only when missing: even IF NOT EXISTS would lock the table against every other server.
  if (column.rows.length === 0) await db.query(`ALTER TABLE memory_embeddings ADD COLUMN IF NOT EXISTS embedding vector`);
  for (;;) {
    const missing = await db.query(`SELECT rowid, vector FROM memory_embeddings WHERE embedding IS NULL LIMIT ${BACKFILL_PAGE}`);
    const rows = missing.rows as { rowid: number; vector: Buffer }[];
    if (rows.length === 0) return true;
    await db.query(
      `UPDATE memory_embeddings e SET embedding = u.embedding::vector
       FROM unnest($1::integer[], $2::text[]) AS u(rowid, embedding) WHERE e.rowid = u.rowid`,
      [rows.map((row) => row.rowid), rows.map((row) => vectorLiteral(bytesToVector(row.vector)))],
    );
  }
}

/** The HNSW index of `dimensions`-long vectors, made on first need (once per process). */
export async function ensureHnswIndex(db: Queryable, dimensions: number, made: Set<number>): Promise<void> {
  if (made.has(dimensions)) return;
  const name = `memory_embeddings_hnsw_${dimensions}`;
  // Servers starting together would race on the catalogue: one at a time makes it, the others find it.
  await db.query(
    `DO $$ BEGIN
       PERFORM pg_advisory_xact_lock(hashtext('engram-hnsw'));
       EXECUTE 'CREATE INDEX IF NOT EXISTS ${name} ON memory_embeddings
         USING hnsw ((embedding::vector(${dimensions})) vector_cosine_ops) WHERE vector_dims(embedding) = ${dimensions}';
     END $$`,
  );
  made.add(dimensions);
}

/**
 * The `limit` memories nearest to `vector` among those `where` (over alias `m`, with `params`)
 * admits, by the HNSW index; fewer when the filter leaves out most of the index's nearest. `db`
 * is one connection inside a transaction: the scan's breadth is set for that transaction alone.
 */
export async function searchPgvector(
  db: Queryable,
  where: string,
  params: Params,
  vector: Float32Array,
  limit: number,
): Promise<VectorHit[]> {
  // Without this an HNSW scan stops at 40 rows: a search for 50 found too few and fell back to
  // scoring every vector.
  const breadth = Math.min(EF_SEARCH_MAX, Math.max(EF_SEARCH_DEFAULT, limit));
  await db.query(`SELECT set_config('hnsw.ef_search', $1, true)`, [String(breadth)]);
  const own = new Params(params.values);
  const dimensions = vector.length;
  const query = own.add(vectorLiteral(vector));
  const distance = `(e.embedding::vector(${dimensions}) <=> ${query}::vector(${dimensions}))`;
  const result = await db.query(
    `SELECT m.id, 1 - ${distance} AS similarity FROM memory_embeddings e JOIN memories m ON m.rowid = e.rowid
     WHERE vector_dims(e.embedding) = ${dimensions} AND ${where} ORDER BY ${distance} LIMIT ${own.add(limit)}`,
    own.values,
  );
  return (result.rows as { id: string; similarity: number }[]).map((row) => ({ id: row.id, similarity: row.similarity }));
}
