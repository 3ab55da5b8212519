/**
 * Giving back the pages a file no longer uses: an upgrade that rewrites a table (schema 12's
 * vectors) or deleted memories leave free pages that SQLite reuses but never returns. `VACUUM`
 * rewrites the file without them; the doctor reports them and compacts on `--repair`, and the
 * upgrade to schema 12 compacts at once when it can. Why: docs/decisions/bytes-per-memory.md.
 */
import type Database from 'better-sqlite3';

/** Free pages worth a compaction: at least this many bytes… */
const WORTH_BYTES = 1024 * 1024;
/** …and at least this share of the file. */
const WORTH_SHARE = 0.1;

/** The file's pages in use and free, in bytes. */
export interface FileSpace {
  fileBytes: number;
  freeBytes: number;
}

/** How much of the file is free pages. */
export function fileSpace(db: Database.Database): FileSpace {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  return { fileBytes: pages * pageSize, freeBytes: free * pageSize };
}

/** Whether the free pages are worth a compaction. */
export function worthCompacting(space: FileSpace): boolean {
  return space.freeBytes >= WORTH_BYTES && space.freeBytes >= space.fileBytes * WORTH_SHARE;
}

/**
 * Rewrites the file without its free pages and returns its space before and after. Runs outside
 * any transaction; needs free disk about the file's size while it runs. Another process may keep
 * reading meanwhile; the write-ahead log is folded back into the file when none is.
 */
export function compact(db: Database.Database): { before: FileSpace; after: FileSpace } {
  const before = fileSpace(db);
  db.exec('VACUUM');
  if ((db.pragma('journal_mode', { simple: true }) as string) === 'wal') db.pragma('wal_checkpoint(TRUNCATE)');
  return { before, after: fileSpace(db) };
}
