/**
 * The doctor's schema question: is this an Engram file, and of which schema version — the current
 * one, an older one (Engram migrates it when it opens it; the repair does it now), or a newer one
 * this Engram cannot read (nothing else is checked, and nothing is touched)?
 */
import type Database from 'better-sqlite3';

import type { DoctorFinding, DoctorRepair } from '../doctor-report.js';
import { REPAIR_COMMAND } from './doctor-part.js';
import { APPLICATION_ID, LATEST_VERSION, migrate } from './migrations.js';
import { isDamage } from './storage-error.js';

export interface Schema {
  finding: DoctorFinding;
  /** The file's `user_version`, or null when it could not be read. */
  version: number | null;
  /** Whether the other checks can read the file's tables. */
  readable: boolean;
}

export function examineSchema(db: Database.Database): Schema {
  let version: number;
  let applicationId: number;
  let tables: number;
  try {
    version = db.pragma('user_version', { simple: true }) as number;
    applicationId = db.pragma('application_id', { simple: true }) as number;
    tables = db.prepare(`SELECT count(*) FROM sqlite_master`).pluck().get() as number;
  } catch (error) {
    if (!isDamage(error)) throw error; // locked, unreadable: the caller hears it, not a finding
    const message = `the schema cannot be read (${(error as Error).message}); nothing else was checked`;
    return { version: null, readable: false, finding: { check: 'schema', status: 'problem', message, fix: null } };
  }
  const finding = (status: DoctorFinding['status'], message: string, fix: string | null = null): DoctorFinding => ({
    check: 'schema',
    status,
    message,
    fix,
  });
  if (applicationId !== APPLICATION_ID && (applicationId !== 0 || tables > 0)) {
    return {
      version,
      readable: false,
      finding: finding(
        'problem',
        'a SQLite database, but not an Engram one; nothing else was checked',
        'point --db at an Engram database',
      ),
    };
  }
  if (version > LATEST_VERSION) {
    return {
      version,
      readable: false,
      finding: finding(
        'problem',
        `schema ${version}, written by a newer Engram (this one understands up to ${LATEST_VERSION}); only its integrity was checked`,
        'upgrade Engram to use this database',
      ),
    };
  }
  if (version < LATEST_VERSION) {
    return {
      version,
      readable: true,
      finding: finding(
        'notice',
        `schema ${version}, older than this Engram's ${LATEST_VERSION}: it is upgraded the next time Engram opens it`,
        `${REPAIR_COMMAND} upgrades it now`,
      ),
    };
  }
  return { version, readable: true, finding: finding('ok', `schema ${version}, the current one`) };
}

/** Runs the migrations a file of an older schema lacks. */
export function upgradeSchema(db: Database.Database, file: string, from: number): DoctorRepair {
  const to = migrate(db, file);
  return { check: 'schema', message: `upgraded the schema from ${from} to ${to}` };
}
