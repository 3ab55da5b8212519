/**
 * The file's page size and giving back the pages it no longer uses. A new file has pages of
 * 8 KiB, where seven half-precision vector rows fill 95% of a page (at 4 KiB, three filled 82%).
 * An upgrade that rewrites a table (schema 12's vectors) or deleted memories leave free pages
 * that SQLite reuses but never returns: `VACUUM` rewrites the file without them, and with pages
 * of 8 KiB when it can leave write-ahead logging for the while (no other process has the file
 * open). The doctor reports both and compacts on `--repair`; the upgrade to schema 12 compacts
 * at once when it can. Why: docs/decisions/bytes-per-memory.md.
 */
import type Database from 'better-sqlite3';

/** The page size of a new file, and of a compacted one. */
export const PAGE_SIZE = 8192;

/** Free pages worth a compaction: at least this many bytes… */
const WORTH_BYTES = 1024 * 1024;
/** …and at least this share of the file. */
const WORTH_SHARE = 0.1;

/** The file's pages, in bytes: all of them and the free ones. */
export interface FileSpace {
  pageSize: number;
  fileBytes: number;
  freeBytes: number;
}

/** How large the file's pages are, and how much of it is free pages. */
export function fileSpace(db: Database.Database): FileSpace {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  return { pageSize, fileBytes: pages * pageSize, freeBytes: free * pageSize };
}

/** Sets the page size of a file that has none yet (nothing written); a no-op on any other. */
export function choosePageSize(db: Database.Database): void {
  if ((db.pragma('page_count', { simple: true }) as number) === 0) db.pragma(`page_size = ${PAGE_SIZE}`);
}

/** Whether a compaction would give back enough: many free pages, or a file of small pages. */
export function worthCompacting(space: FileSpace): boolean {
  const free = space.freeBytes >= WORTH_BYTES && space.freeBytes >= space.fileBytes * WORTH_SHARE;
  return free || (space.pageSize < PAGE_SIZE && space.fileBytes >= WORTH_BYTES);
}

/**
 * Rewrites the file without its free pages, in pages of `PAGE_SIZE` when no other connection
 * has it open (the page size of a file in write-ahead logging is fixed), and returns its space
 * before and after. Runs outside any transaction; needs free disk about the file's size.
 */
export function compact(db: Database.Database): { before: FileSpace; after: FileSpace } {
  const before = fileSpace(db);
  const wal = (db.pragma('journal_mode', { simple: true }) as string) === 'wal';
  const resize = before.pageSize !== PAGE_SIZE && (!wal || leaveWal(db));
  try {
    if (resize) db.pragma(`page_size = ${PAGE_SIZE}`);
    db.exec('VACUUM');
  } finally {
    if (resize && wal) db.pragma('journal_mode = WAL');
  }
  // VACUUM in write-ahead logging wrote the whole file into the log: fold it back. Out of it, the
  // file was rewritten in place and the log starts empty.
  if (wal && !resize) db.pragma('wal_checkpoint(TRUNCATE)');
  return { before, after: fileSpace(db) };
}

/** Leaves write-ahead logging for a rollback journal; false when another connection holds the file. */
function leaveWal(db: Database.Database): boolean {
  try {
    return (db.pragma('journal_mode = DELETE', { simple: true }) as string) === 'delete';
  } catch (error) {
    if (/busy|locked/i.test((error as Error).message)) return false;
    throw error;
  }
}
