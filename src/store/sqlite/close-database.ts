/**
 * The SQLite file at rest: closing it with SQLite's housekeeping (fresh planner statistics, the
 * WAL folded back into the file), and its size on disk for `stats`.
 */
import { statSync } from 'node:fs';

import type Database from 'better-sqlite3';

import { IN_MEMORY } from './open-database.js';
import { isDamage, isUnwritable } from './storage-error.js';

/** Closes `db` (the file `file`), doing the housekeeping a close can do. */
export function closeDatabase(db: Database.Database, file: string): void {
  if (!db.open) return;
  try {
    db.pragma('busy_timeout = 0'); // housekeeping never waits for another process's lock
    db.pragma('optimize'); // keeps the query planner's statistics fresh, as SQLite advises on close
    if (file !== IN_MEMORY) db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (error) {
    // Housekeeping only: on a read-only file, a full disk or one another process is writing,
    // it waits for a close that can write, and the command that read the file has done its work.
    // On a damaged file it is not done at all: the statistics would be written into the damage,
    // and an export copying what still reads out of the file must not fail at the end.
    if (!isUnwritable(error) && !isDamage(error)) throw error;
  } finally {
    db.close();
  }
}

/** The bytes `file` and its WAL take on disk; null in memory. */
export function sizeOnDisk(file: string): number | null {
  if (file === IN_MEMORY) return null;
  let total = 0;
  for (const suffix of ['', '-wal']) {
    try {
      total += statSync(file + suffix).size;
    } catch {
      // no WAL file at the moment: nothing to add
    }
  }
  return total;
}
