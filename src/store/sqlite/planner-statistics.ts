/**
 * The query planner's statistics, kept fresh on a long-lived connection. Without them SQLite
 * guesses, and on a store that grew from empty in one process (a server, the resident process,
 * a benchmark) it guessed wrong: the pinned memories of every recall decision were listed by
 * walking all memories in time order (25 ms at 100k) rather than through their small partial
 * index. SQLite's advice is `PRAGMA optimize` on close (done there) and now and then on a
 * long-lived connection; here "now and then" is whenever the memories have doubled since the
 * last analysis, with a row limit per index so that each costs tens of milliseconds.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type Database from 'better-sqlite3';

import { isUnwritable } from './storage-error.js';

/** The first analysis waits for this many memories. */
const FIRST_ANALYSIS_AT = 1_000;
/** Index rows sampled per index (SQLite's `analysis_limit`). */
const ANALYSIS_LIMIT = 1_000;

export class PlannerStatistics {
  private readonly db: Database.Database;
  /** Memories when the statistics were last gathered (0: never). */
  private analyzedAt: number;
  private inserted = 0;

  constructor(db: Database.Database) {
    this.db = db;
    this.analyzedAt = analyzedRows(db);
  }

  /** Counts `count` new memories, and gathers the statistics anew when the store has doubled. */
  noteInserted(count: number): void {
    this.inserted += count;
    if (this.inserted < Math.max(FIRST_ANALYSIS_AT, this.analyzedAt)) return;
    try {
      this.db.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
      this.db.exec('ANALYZE');
    } catch (error) {
      // Housekeeping: a file another process is writing, or a full disk, can wait for the next time.
      if (!isUnwritable(error)) throw error;
    }
    this.analyzedAt = analyzedRows(this.db);
    this.inserted = 0;
  }
}

/** The memories counted by the last analysis, from `sqlite_stat1` (0 when there is none). */
function analyzedRows(db: Database.Database): number {
  const hasStatistics = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'`).pluck().get() !== undefined;
  if (!hasStatistics) return 0;
  // Each index's line starts with the rows it covers; a partial index covers fewer.
  const rows = db.prepare(`SELECT max(CAST(stat AS INTEGER)) FROM sqlite_stat1 WHERE tbl = 'memories'`).pluck().get();
  return typeof rows === 'number' ? rows : 0;
}
