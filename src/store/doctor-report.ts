/**
 * What `engram doctor` finds in a database and what its repair did, in a shape every surface
 * prints the same way: one finding per line, each saying what is wrong and what fixes it.
 */

/** The parts of a database the doctor checks, in the order it checks them. */
export const DOCTOR_CHECKS = ['integrity', 'schema', 'full_text', 'vectors', 'embedder', 'sessions', 'graph', 'space'] as const;
export type DoctorCheck = (typeof DOCTOR_CHECKS)[number];

/** One thing the doctor found. */
export interface DoctorFinding {
  check: DoctorCheck;
  /** `ok`: as it should be; `notice`: worth knowing, not a fault; `problem`: something to fix. */
  status: 'ok' | 'notice' | 'problem';
  /** One sentence: what was found. */
  message: string;
  /** What fixes a problem: `engram doctor --repair`, or what to do instead; null when nothing needs fixing. */
  fix: string | null;
}

/** One thing `--repair` changed. */
export interface DoctorRepair {
  check: DoctorCheck;
  message: string;
}

/** The doctor's answer for one database. */
export interface DoctorReport {
  /** The SQLite file, or the PostgreSQL URL without its password. */
  path: string;
  /** The database's schema version, or null when it could not be read. */
  schemaVersion: number | null;
  /** The newest schema this Engram understands. */
  latestSchemaVersion: number;
  /** True when no finding is a problem. */
  healthy: boolean;
  /** What the (last) check found: after the repair, when one ran. */
  findings: DoctorFinding[];
  /** What the repair changed, in order; empty without `repair`. */
  repairs: DoctorRepair[];
  /** With `repair`: what the check found before repairing. */
  before?: DoctorFinding[];
}
