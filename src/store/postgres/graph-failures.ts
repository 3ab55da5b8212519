/**
 * Failed extractions in PostgreSQL, by the rules of ../sqlite/graph-failures.ts: one row per
 * memory whose graph extraction failed, replaced by a later failure, cleared when an extraction
 * of it is recorded or it is forgotten, and gone with the memory (its foreign key).
 */
import type { ExtractionFailure } from '../graph-store.js';
import type { Queryable } from './connection.js';

/** Records these failures for the stored memories of `tenant`; returns how many were recorded. */
export async function recordFailureRows(
  db: Queryable,
  tenant: string,
  failures: readonly ExtractionFailure[],
  at: number,
): Promise<number> {
  if (failures.length === 0) return 0;
  const result = await db.query(
    `INSERT INTO extraction_failures (memory_rowid, error, failed_at)
     SELECT m.rowid, f.error, $4 FROM unnest($2::text[], $3::text[]) AS f(id, error)
       JOIN memories m ON m.tenant = $1 AND m.id = f.id
     ON CONFLICT (memory_rowid) DO UPDATE SET error = excluded.error, failed_at = excluded.failed_at`,
    [tenant, failures.map((f) => f.memoryId), failures.map((f) => f.error), at],
  );
  return result.rowCount ?? 0;
}

/** Clears the failures of these memories (by rowid). */
export async function clearExtractionFailures(db: Queryable, memoryRowids: readonly number[]): Promise<void> {
  if (memoryRowids.length === 0) return;
  await db.query(`DELETE FROM extraction_failures WHERE memory_rowid = ANY($1::integer[])`, [[...memoryRowids]]);
}
