/**
 * Where a PostgreSQL store's bytes go: each table of the store's schema with its indexes and
 * TOAST (`pg_total_relation_size`), its heap alone and its indexes alone, for `bench footprint`.
 * The server's own overhead (WAL, catalogs) is not the store's and is left out.
 */
import { connectionError, createPool } from './connection.js';

/** One table's bytes on the server. */
export interface RelationSpace {
  name: string;
  /** Heap, indexes and TOAST together. */
  totalBytes: number;
  /** The table's rows alone (with its TOAST). */
  tableBytes: number;
  indexBytes: number;
}

/** The tables of the schema `url` searches first, largest first. */
export async function relationSizes(url: string): Promise<RelationSpace[]> {
  const pool = createPool(url, { max: 1 });
  try {
    // ANALYZE is not needed for sizes; VACUUM would be, for dead rows, but a fresh store has none.
    const result = await pool.query(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid)::float8 AS "totalBytes",
              pg_table_size(c.oid)::float8 AS "tableBytes", pg_indexes_size(c.oid)::float8 AS "indexBytes"
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind = 'r'
       ORDER BY 2 DESC, 1`,
    );
    return result.rows as RelationSpace[];
  } catch (error) {
    throw connectionError(error, url);
  } finally {
    await pool.end();
  }
}
