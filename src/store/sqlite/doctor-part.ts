/**
 * What each part of the doctor's examination of an SQLite file looks like (the full-text index,
 * the vectors, the session tables, the graph), and the small queries they share.
 */
import type Database from 'better-sqlite3';

import type { DoctorCheck, DoctorFinding, DoctorRepair } from '../doctor-report.js';

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

/** `3 memories` / `1 memory`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** ` (01J…, 01J…, …)`: a few ids, so a person can look them up. */
export function examples(ids: readonly string[], total: number): string {
  if (ids.length === 0) return '';
  return ` (${ids.join(', ')}${total > ids.length ? ', …' : ''})`;
}

/** How many example ids a finding names at most. */
export const EXAMPLES = 3;

/** The findings of a part with nothing wrong, or its problems. */
export function findingsOf(check: DoctorCheck, problems: DoctorFinding[], healthy: string): DoctorFinding[] {
  return problems.length > 0 ? problems : [{ check, status: 'ok', message: healthy, fix: null }];
}

/** How every fix the repair makes begins, so a reader (and the summary line) can tell them apart. */
export const REPAIR_COMMAND = 'engram doctor --repair';

/** A problem that `engram doctor --repair` fixes. */
export function repairable(check: DoctorCheck, message: string, what: string): DoctorFinding {
  return { check, status: 'problem', message, fix: `${REPAIR_COMMAND} ${what}` };
}
