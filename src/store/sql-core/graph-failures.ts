/**
 * Failed extractions: one row per memory whose graph extraction failed (the memory is stored,
 * its graph is not), replaced by a later failure, cleared when an extraction of it is recorded
 * or it is forgotten, and gone with the memory (SQLite's trigger, PostgreSQL's foreign key).
 * `engram stats` counts them, `engram doctor` reports them and `engram reindex` retries them.
 */
import type { ExtractionFailure } from '../graph-store.js';
import { type Program, run } from './session.js';
import { JOIN_IN_ORDER, oneOf, raw, rows, sql } from './sql.js';

/** Records these failures for the stored memories of `tenant`; returns how many were recorded. */
export function* recordFailureRows(tenant: string, failures: readonly ExtractionFailure[], at: number): Program<number> {
  if (failures.length === 0) return 0;
  const columns = [
    { name: 'id', type: 'text' },
    { name: 'error', type: 'text' },
  ] as const;
  return yield* run(
    sql`INSERT INTO extraction_failures (memory_rowid, error, failed_at)
      SELECT m.rowid, f.error, ${at} FROM ${rows(
        'f',
        columns,
        failures.map((failure) => [failure.memoryId, failure.error]),
      )} ${JOIN_IN_ORDER} memories m ON m.id = f.id WHERE m.tenant = ${tenant}
      ON CONFLICT (memory_rowid) DO UPDATE SET error = excluded.error, failed_at = excluded.failed_at`,
  );
}

/** Clears the failures of these memories (by rowid). */
export function* clearExtractionFailures(memoryRowids: readonly number[]): Program<void> {
  if (memoryRowids.length === 0) return;
  yield* run(sql`DELETE FROM extraction_failures WHERE ${oneOf(raw('memory_rowid'), memoryRowids, 'integer')}`);
}
