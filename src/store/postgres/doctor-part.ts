/**
 * What each part of the doctor's examination of a PostgreSQL database looks like (the full-text
 * words, the vectors, the session tables, the graph), and the small queries they share. The
 * wording helpers are shared (../doctor-wording.ts), so both backends name a fault the same way.
 */
import type { DoctorCheck, DoctorFinding, DoctorRepair } from '../doctor-report.js';
import type { Queryable } from './connection.js';

export { EXAMPLES, examples, findingsOf, plural, REPAIR_COMMAND, repairable } from '../doctor-wording.js';

/** One part of a database the doctor examines and, when asked, repairs. */
export interface PostgresDoctorPart {
  check: DoctorCheck;
  /** Tables the part reads; a database without them has nothing to check. */
  tables: readonly string[];
  /** What is wrong, one finding per kind of fault, or one `ok` finding. Reads only. */
  examine(db: Queryable): Promise<DoctorFinding[]>;
  /** Fixes what `examine` found without losing a memory; runs inside the caller's transaction. */
  repair(db: Queryable): Promise<DoctorRepair[]>;
}

/** The one number `sql` selects (as column `n`). */
export async function countOf(db: Queryable, sql: string, params: unknown[] = []): Promise<number> {
  const result = await db.query(sql, params);
  return Number((result.rows[0] as { n: number | string }).n);
}

/** The ids `sql` selects (as column `id`). */
export async function idsOf(db: Queryable, sql: string, params: unknown[] = []): Promise<string[]> {
  const result = await db.query(sql, params);
  return (result.rows as { id: string }[]).map((row) => row.id);
}

/** Whether the database has every one of these tables (on the search path). */
export async function hasTables(db: Queryable, names: readonly string[]): Promise<boolean> {
  const result = await db.query(`SELECT bool_and(to_regclass(name) IS NOT NULL) AS present FROM unnest($1::text[]) AS name`, [
    [...names],
  ]);
  return (result.rows[0] as { present: boolean | null }).present === true;
}

/** The number of rows a statement changed. */
export async function changesOf(db: Queryable, sql: string, params: unknown[] = []): Promise<number> {
  return (await db.query(sql, params)).rowCount ?? 0;
}
