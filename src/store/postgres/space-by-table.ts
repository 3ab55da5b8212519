/**
 * Where a PostgreSQL store's bytes go, for `bench footprint`: each table of the store's schema
 * with its indexes and TOAST (`pg_total_relation_size`), its heap, its TOAST and its indexes
 * apart; each index on its own (pgvector's HNSW index among them); and a table's columns by the
 * bytes their values take as stored (`pg_column_size`: compressed or moved to TOAST, as they lie).
 * The server's own overhead (WAL, catalogs) is not the store's and is left out.
 */
import pg from 'pg';

import { connectionError, createPool } from './connection.js';

/** One table's bytes on the server. */
export interface RelationSpace {
  name: string;
  /** Heap, indexes and TOAST together. */
  totalBytes: number;
  /** The table's rows alone (with its TOAST). */
  tableBytes: number;
  /** The part of `tableBytes` in its TOAST table (values stored out of line) and that table's index. */
  toastBytes: number;
  indexBytes: number;
}

/** One index's bytes on the server. */
export interface IndexSpace {
  name: string;
  table: string;
  /** Its access method: btree, gin, hnsw, … */
  method: string;
  bytes: number;
}

/** The bytes one column's values take, summed over the table's rows. */
export interface ColumnSpace {
  name: string;
  /** Its type as the catalogue names it: bytea, vector, … */
  type: string;
  bytes: number;
  /** Rows where it is not null. */
  values: number;
}

/** The tables of the schema `url` searches first, largest first. */
export async function relationSizes(url: string): Promise<RelationSpace[]> {
  // Dead row versions count until a VACUUM clears them (`settleTables`): the bench settles a store first.
  return (await queryOnce(
    url,
    `SELECT c.relname AS name, pg_total_relation_size(c.oid)::float8 AS "totalBytes",
            pg_table_size(c.oid)::float8 AS "tableBytes",
            coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0)::float8 AS "toastBytes",
            pg_indexes_size(c.oid)::float8 AS "indexBytes"
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind = 'r'
     ORDER BY 2 DESC, 1`,
  )) as RelationSpace[];
}

/** The indexes of the tables of the schema `url` searches first, largest first (all their forks: a vacuumed index has a free space map too). */
export async function indexSizes(url: string): Promise<IndexSpace[]> {
  return (await queryOnce(
    url,
    `SELECT i.relname AS name, t.relname AS "table", am.amname AS method, pg_total_relation_size(i.oid)::float8 AS bytes
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     JOIN pg_am am ON am.oid = i.relam JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = current_schema()
     ORDER BY 4 DESC, 1`,
  )) as IndexSpace[];
}

/** The columns of `table` (in the schema `url` searches first), in their order, with the bytes their values take. */
export async function columnSizes(url: string, table: string): Promise<ColumnSpace[]> {
  const columns = (await queryOnce(
    url,
    `SELECT a.attname AS name, format_type(a.atttypid, NULL) AS type
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relname = $1 AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY a.attnum`,
    [table],
  )) as { name: string; type: string }[];
  if (columns.length === 0) return [];
  const sums = columns.map(
    ({ name }, i) =>
      `coalesce(sum(pg_column_size(${pg.escapeIdentifier(name)})), 0)::float8 AS b${i}, count(${pg.escapeIdentifier(name)})::float8 AS n${i}`,
  );
  const [row] = (await queryOnce(url, `SELECT ${sums.join(', ')} FROM ${pg.escapeIdentifier(table)}`)) as Record<
    string,
    number
  >[];
  return columns.map((column, i) => ({ ...column, bytes: row?.[`b${i}`] ?? 0, values: row?.[`n${i}`] ?? 0 }));
}

async function queryOnce(url: string, text: string, values?: unknown[]): Promise<unknown[]> {
  const pool = createPool(url, { max: 1 });
  try {
    return (await pool.query(text, values)).rows;
  } catch (error) {
    throw connectionError(error, url);
  } finally {
    await pool.end();
  }
}
