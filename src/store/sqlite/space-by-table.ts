/**
 * Where a file's bytes go: SQLite's page statistics (the `dbstat` table) per table and index —
 * pages, bytes of payload, bytes left unused — for `bench footprint` and anyone sizing a store.
 * Read-only; opens the file apart from any store.
 */
import Database from 'better-sqlite3';

/** One table's or index's share of the file. */
export interface TableSpace {
  /** The table or index (an FTS5 table's shadow tables are listed apart: `memories_fts_data`, …). */
  name: string;
  pages: number;
  /** Bytes of pages it takes (pages × page size). */
  bytes: number;
  /** Bytes of its rows' content. */
  payload: number;
  /** Bytes of its pages left empty. */
  unused: number;
}

/** The file's space, table by table (largest first), with its free pages and page size. */
export interface FileSpaceByTable {
  pageSize: number;
  fileBytes: number;
  freeBytes: number;
  tables: TableSpace[];
}

/** Reads `file`'s page statistics (best after the store is closed and its log folded back). */
export function spaceByTable(file: string): FileSpaceByTable {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const tables = db
      .prepare(
        `SELECT name, count(*) AS pages, sum(pgsize) AS bytes, sum(payload) AS payload, sum(unused) AS unused
         FROM dbstat GROUP BY name ORDER BY bytes DESC, name`,
      )
      .all() as TableSpace[];
    return {
      pageSize,
      fileBytes: (db.pragma('page_count', { simple: true }) as number) * pageSize,
      freeBytes: (db.pragma('freelist_count', { simple: true }) as number) * pageSize,
      tables,
    };
  } finally {
    db.close();
  }
}
