/**
 * What each part of the doctor's examination of an SQLite file looks like (the full-text index,
 * the vectors, the session tables, the graph), and the small queries they share.
 */
import type Database from 'better-sqlite3';

import type { DoctorCheck, DoctorFinding, DoctorRepair } from '../doctor-report.js';

export { EXAMPLES, examples, findingsOf, plural, REPAIR_COMMAND, repairable } from '../doctor-wording.js';

/** One part of a database the doctor examines and, when asked, repairs. */
export interface DoctorPart {
  check: DoctorCheck;
  /** Tables the part reads; a file from before they existed has nothing to check. */
  tables: readonly string[];
  /** What is wrong, one finding per kind of fault, or one `ok` finding. Reads only. */
  examine(db: Database.Database): DoctorFinding[];
  /** Fixes what `examine` found without losing a memory; runs inside a transaction. */
  repair(db: Database.Database): DoctorRepair[];
}

/** Whether the file has this table (or virtual table). */
export function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE name = ? AND type = 'table'`).get(name) !== undefined;
}

/** The one number `sql` selects. */
export function countOf(db: Database.Database, sql: string, ...params: unknown[]): number {
  return db
    .prepare(sql)
    .pluck()
    .get(...params) as number;
}
