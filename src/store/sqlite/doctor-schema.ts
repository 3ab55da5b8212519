/**
 * The doctor's schema question: is this an Engram file, and of which schema version — the current
 * one, an older one (Engram migrates it when it opens it; the repair does it now), or a newer one
 * this Engram cannot read (nothing else is checked, and nothing is touched)?
 */
import type Database from 'better-sqlite3';

import type { DoctorRepair } from '../doctor-report.js';
import { type Schema, schemaFinding, schemaOfVersion, upgradedSchema } from '../sql-core/doctor-schema-version.js';
import { APPLICATION_ID, LATEST_VERSION, migrate } from './migrations.js';
import { isDamage } from './storage-error.js';

export type { Schema } from '../sql-core/doctor-schema-version.js';

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
  if (applicationId !== APPLICATION_ID && (applicationId !== 0 || tables > 0)) {
    return {
      version,
      readable: false,
      finding: schemaFinding(
        'problem',
        'a SQLite database, but not an Engram one; nothing else was checked',
        'point --db at an Engram database',
      ),
    };
  }
  return schemaOfVersion(version, LATEST_VERSION, 'only its integrity was checked');
}

/** Runs the migrations a file of an older schema lacks. */
export function upgradeSchema(db: Database.Database, file: string, from: number): DoctorRepair {
  return upgradedSchema(from, migrate(db, file));
}
