/**
 * The SQLite side of failed extractions: one row per memory whose graph extraction failed (the
 * memory is stored, its graph is not), replaced by a later failure, cleared when an extraction
 * of it is recorded or it is forgotten, and gone with the memory (migration 11's trigger).
 * `engram stats` counts them, `engram doctor` reports them and `engram reindex` retries them.
 */
import type Database from 'better-sqlite3';

import type { ExtractionFailure } from '../graph-store.js';

/** Records these failures for the stored memories of `tenant`; returns how many were recorded. */
export function recordFailureRows(
  db: Database.Database,
  tenant: string,
  failures: readonly ExtractionFailure[],
  at: number,
): number {
  const write = db.prepare(
    `INSERT OR REPLACE INTO extraction_failures (memory_rowid, error, failed_at)
     SELECT rowid, ?, ? FROM memories WHERE tenant = ? AND id = ?`,
  );
  return failures.reduce((recorded, failure) => recorded + write.run(failure.error, at, tenant, failure.memoryId).changes, 0);
}

/** Clears the failures of these memories (by rowid). */
export function clearExtractionFailures(db: Database.Database, memoryRowids: readonly number[]): void {
  if (memoryRowids.length === 0) return;
  db.prepare(`DELETE FROM extraction_failures WHERE memory_rowid IN (SELECT value FROM json_each(?))`).run(
    JSON.stringify(memoryRowids),
  );
}

/** How many memories of `tenant` have a recorded failure. */
export function countFailureRows(db: Database.Database, tenant: string): number {
  return db
    .prepare(`SELECT count(*) FROM extraction_failures f CROSS JOIN memories m ON m.rowid = f.memory_rowid WHERE m.tenant = ?`)
    .pluck()
    .get(tenant) as number;
}
